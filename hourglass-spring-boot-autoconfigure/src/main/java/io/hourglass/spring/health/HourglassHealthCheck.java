package io.hourglass.spring.health;

import io.hourglass.Hourglass;
import io.hourglass.TopicStats;
import io.hourglass.spring.listener.ListenerStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The health of Hourglass in this application, for each Spring Boot line's health indicator. It checks two things:
 *
 * <ol>
 *   <li><b>Redis answers</b>: it reads every topic's counts ({@link Hourglass#topics()}), within the command timeout.
 *       If that fails, DOWN with the error.
 *   <li><b>Promotion is not stalled</b>: for each topic with a running {@code @HourglassListener} in this application,
 *       DOWN when, for at least the stall threshold, every health check saw ready jobs in Redis and a free handler slot
 *       in this application, and no handler of the topic started a job. Due jobs are then not reaching a worker that
 *       could take them. The time is measured across successive checks, so a stall shows at the first check at least
 *       the threshold after the first check that saw it.
 * </ol>
 *
 * <p>Details: the namespace, the Redis connection, the number of topics, and per listened topic the ready count, the
 * handlers busy and free here and the last delivery; {@code stalled} lists stalled topics. Thread-safe (checks are
 * serialized).
 */
public final class HourglassHealthCheck {
    private final Hourglass hourglass;
    private final Supplier<List<ListenerStatus>> listeners;
    private final Duration stallThreshold;
    private final Clock clock;
    private final String redis;
    private final Map<String, Instant> waitingSince = new HashMap<>();

    /**
     * @param hourglass the instance to check; not null
     * @param listeners the listener workers of this application, read at each check; not null
     * @param stallThreshold how long ready jobs may wait while slots are free and nothing is delivered; positive
     * @param clock the clock of the checks (and of {@link ListenerStatus#lastDeliveryAt()}); not null
     * @param redis a description of the Redis connection for the details, passwords masked; not null
     */
    public HourglassHealthCheck(
            Hourglass hourglass,
            Supplier<List<ListenerStatus>> listeners,
            Duration stallThreshold,
            Clock clock,
            String redis) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        if (stallThreshold == null || stallThreshold.isNegative() || stallThreshold.isZero()) {
            throw new IllegalArgumentException(
                    "hourglass.health.stall-threshold: must be positive, got " + stallThreshold);
        }
        this.stallThreshold = stallThreshold;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.redis = Objects.requireNonNull(redis, "redis");
    }

    /** @return the report; never throws (a failure is a DOWN report) */
    public synchronized HealthReport check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("namespace", hourglass.namespace());
        details.put("redis", redis);
        Map<String, TopicStats> stats = new HashMap<>();
        try {
            for (TopicStats topic : hourglass.topics()) {
                stats.put(topic.topic(), topic);
            }
        } catch (RuntimeException e) {
            details.put("error", e.getClass().getName() + ": " + e.getMessage());
            return new HealthReport(false, details);
        }
        details.put("topics", stats.size());
        Instant now = clock.instant();
        Map<String, Object> listened = new LinkedHashMap<>();
        List<String> stalled = new ArrayList<>();
        for (Map.Entry<String, List<ListenerStatus>> topic : runningByTopic().entrySet()) {
            TopicStats counts = stats.getOrDefault(topic.getKey(), new TopicStats(topic.getKey(), 0, 0, 0, 0));
            TopicView view = new TopicView(topic.getValue());
            listened.put(topic.getKey(), view.details(counts));
            if (counts.ready() > 0 && view.freeSlots() > 0) {
                Instant since = waitingSince.computeIfAbsent(topic.getKey(), t -> now);
                Instant progress =
                        view.lastDeliveryAt() != null && view.lastDeliveryAt().isAfter(since)
                                ? view.lastDeliveryAt()
                                : since;
                if (Duration.between(progress, now).compareTo(stallThreshold) >= 0) {
                    stalled.add(topic.getKey() + ": " + counts.ready() + " ready jobs and " + view.freeSlots()
                            + " free handler slots, but no delivery since " + progress);
                }
            } else {
                waitingSince.remove(topic.getKey());
            }
        }
        waitingSince.keySet().retainAll(listened.keySet());
        details.put("listeners", listened);
        if (!stalled.isEmpty()) {
            details.put("stalled", stalled);
        }
        return new HealthReport(stalled.isEmpty(), details);
    }

    private Map<String, List<ListenerStatus>> runningByTopic() {
        Map<String, List<ListenerStatus>> byTopic = new LinkedHashMap<>();
        for (ListenerStatus status : listeners.get()) {
            if (status.running()) {
                byTopic.computeIfAbsent(status.topic(), t -> new ArrayList<>()).add(status);
            }
        }
        return byTopic;
    }

    /** The listeners of one topic, summed. */
    private static final class TopicView {
        private int busy;
        private int free;
        private Instant lastDeliveryAt;

        TopicView(List<ListenerStatus> statuses) {
            for (ListenerStatus status : statuses) {
                busy += status.activeCount();
                free += Math.max(0, status.concurrency() - status.activeCount());
                if (status.lastDeliveryAt() != null
                        && (lastDeliveryAt == null || status.lastDeliveryAt().isAfter(lastDeliveryAt))) {
                    lastDeliveryAt = status.lastDeliveryAt();
                }
            }
        }

        int freeSlots() {
            return free;
        }

        Instant lastDeliveryAt() {
            return lastDeliveryAt;
        }

        Map<String, Object> details(TopicStats counts) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("ready", counts.ready());
            details.put("busyHandlers", busy);
            details.put("freeHandlers", free);
            details.put("lastDelivery", lastDeliveryAt == null ? "never" : lastDeliveryAt.toString());
            return details;
        }
    }
}
