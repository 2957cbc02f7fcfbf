package io.hourglass.spring.metrics;

import io.hourglass.Hourglass;
import io.hourglass.TopicOverview;
import io.micrometer.core.instrument.FunctionCounter;
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
 * Per-topic gauges read from Redis: {@value #JOBS} (jobs in each state, tagged {@code topic} and {@code state} =
 * {@code scheduled}, {@code ready}, {@code active} or {@code dead}), {@value #LATENCY} (seconds: the age of the topic's
 * oldest READY job, 0 when none is ready) and {@value #PAUSED} (1 while the topic is paused, else 0), all tagged
 * {@code topic}, and the counter {@value #DEAD_LETTERS_TRIMMED} (dead letters the topic's count and age limits
 * deleted). They are read with the inspector ({@link Hourglass#inspector()}, {@code topics()}) every refresh interval
 * on a daemon thread, not on each scrape, so a scrape never waits for Redis. While Redis cannot be read the gauges
 * report NaN. Gauges appear for each topic when a refresh first sees it.
 *
 * <p>Starts refreshing when first bound to a registry; {@link #close()} stops it. Thread-safe.
 */
public final class HourglassTopicGauges implements MeterBinder, AutoCloseable {
    /** Gauge: jobs of a topic in one state. */
    public static final String JOBS = "hourglass.topic.jobs";
    /** Gauge, seconds: the age of a topic's oldest READY job, the time it has waited past its due time for a worker. */
    public static final String LATENCY = "hourglass.topic.latency";
    /** Gauge: 1 while a topic is paused ({@code Inspector.pause}), else 0. */
    public static final String PAUSED = "hourglass.topic.paused";
    /** Counter: dead letters the topic's limits deleted, the total Redis keeps ({@code deadLettersTrimmed}). */
    public static final String DEAD_LETTERS_TRIMMED = "hourglass.topic.dead.letters.trimmed";

    private static final Logger log = LoggerFactory.getLogger(HourglassTopicGauges.class);
    private static final Map<String, ToDoubleFunction<TopicOverview>> STATES = Map.of(
            "scheduled",
            TopicOverview::scheduled,
            "ready",
            TopicOverview::ready,
            "active",
            TopicOverview::active,
            "dead",
            TopicOverview::dead);

    private final Hourglass hourglass;
    private final Duration refreshInterval;
    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
    private final Map<String, TopicOverview> latest = new ConcurrentHashMap<>();
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

    /** Reads every topic's overview from Redis now (also done every refresh interval); never throws. */
    public void refresh() {
        try {
            for (TopicOverview overview : hourglass.inspector().topics()) {
                if (latest.put(overview.topic(), overview) == null) {
                    registerEverywhere(overview.topic());
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
                        "Hourglass topic gauges: cannot read the topics from Redis; reporting NaN until they can be"
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
        Gauge.builder(
                        LATENCY,
                        this,
                        gauges -> gauges.value(topic, o -> o.latency().toMillis() / 1000.0))
                .tag("topic", topic)
                .baseUnit("seconds")
                .strongReference(true)
                .description("Age of the topic's oldest READY job (0 when none is ready)")
                .register(registry);
        Gauge.builder(PAUSED, this, gauges -> gauges.value(topic, o -> o.paused() ? 1 : 0))
                .tag("topic", topic)
                .strongReference(true)
                .description("1 while the topic is paused, else 0")
                .register(registry);
        FunctionCounter.builder(
                        DEAD_LETTERS_TRIMMED, this, gauges -> gauges.value(topic, TopicOverview::deadLettersTrimmed))
                .tag("topic", topic)
                .baseUnit("jobs")
                .description("Dead letters the topic's count and age limits deleted, as counted in Redis")
                .register(registry);
    }

    private double value(String topic, ToDoubleFunction<TopicOverview> reading) {
        TopicOverview overview = latest.get(topic);
        return stale || overview == null ? Double.NaN : reading.applyAsDouble(overview);
    }

    /** Stops refreshing. */
    @Override
    public void close() {
        closed = true;
        refresher.shutdownNow();
    }
}
