package io.hourglass.spring.metrics;

import io.hourglass.Hourglass;
import io.hourglass.TopicStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of how many jobs each topic of the namespace holds in each state: {@value #JOBS}, tagged {@code topic} and
 * {@code state} = {@code scheduled}, {@code ready}, {@code active} or {@code dead}. The counts are read from Redis
 * ({@link Hourglass#topics()}) every refresh interval on a daemon thread, not on each scrape, so a scrape never waits
 * for Redis. While Redis cannot be read the gauges report NaN. Gauges appear for each topic when a refresh first sees
 * it.
 *
 * <p>Starts refreshing when first bound to a registry; {@link #close()} stops it. Thread-safe.
 */
public final class HourglassTopicGauges implements MeterBinder, AutoCloseable {
    /** Gauge: jobs of a topic in one state. */
    public static final String JOBS = "hourglass.topic.jobs";

    private static final Logger log = LoggerFactory.getLogger(HourglassTopicGauges.class);
    private static final Map<String, ToDoubleFunction<TopicStats>> STATES = Map.of(
            "scheduled",
            TopicStats::scheduled,
            "ready",
            TopicStats::ready,
            "active",
            TopicStats::active,
            "dead",
            TopicStats::dead);

    private final Hourglass hourglass;
    private final Duration refreshInterval;
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
    private final Map<String, TopicStats> latest = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher;
    private volatile boolean stale;
    private volatile boolean started;
    private volatile boolean closed;

    /**
     * @param hourglass the instance whose namespace is read; not null
     * @param refreshInterval how often to read, positive
     */
    public HourglassTopicGauges(Hourglass hourglass, Duration refreshInterval) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        if (refreshInterval == null || refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException(
                    "hourglass.metrics.refresh-interval: must be positive, got " + refreshInterval);
        }
        this.refreshInterval = refreshInterval;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "hourglass-topic-gauges");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        registries.add(registry);
        latest.keySet().forEach(topic -> register(registry, topic));
        if (!started) {
            started = true;
            refresher.scheduleWithFixedDelay(this::refresh, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Reads every topic's counts from Redis now (also done every refresh interval); never throws. */
    public void refresh() {
        try {
            for (TopicStats stats : hourglass.topics()) {
                if (latest.put(stats.topic(), stats) == null) {
                    registerEverywhere(stats.topic());
                }
            }
            if (stale) {
                log.info("Hourglass topic gauges: Redis can be read again");
            }
            stale = false;
        } catch (RuntimeException e) {
            if (closed) {
                return;
            }
            if (!stale) {
                log.warn(
                        "Hourglass topic gauges: cannot read the topics' counts from Redis; reporting NaN until it can"
                                + " be"
                                + " read: {}",
                        e.toString());
            }
            stale = true;
        }
    }

    private synchronized void registerEverywhere(String topic) {
        registries.forEach(registry -> register(registry, topic));
    }

    private void register(MeterRegistry registry, String topic) {
        STATES.forEach((state, count) -> Gauge.builder(JOBS, this, gauges -> gauges.value(topic, count))
                .tag("topic", topic)
                .tag("state", state)
                .baseUnit("jobs")
                .strongReference(true)
                .description(
                        "Jobs of the topic in each state, read from Redis every hourglass.metrics.refresh-interval")
                .register(registry));
    }

    private double value(String topic, ToDoubleFunction<TopicStats> count) {
        TopicStats stats = latest.get(topic);
        return stale || stats == null ? Double.NaN : count.applyAsDouble(stats);
    }

    /** Stops refreshing. */
    @Override
    public void close() {
        closed = true;
        refresher.shutdownNow();
    }
}
