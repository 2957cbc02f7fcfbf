package io.hourglass.server.api;

import io.hourglass.Delivery;
import io.hourglass.JobState;
import io.hourglass.spring.metrics.HourglassMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Counts what pull workers do over HTTP in the starter's meters ({@link HourglassMetrics}), which count only the
 * deliveries that run in this process (the server's callbacks): a reserved job is delivered
 * ({@value HourglassMetrics#DELIVERED}) and its lateness recorded ({@value HourglassMetrics#LATENESS}: from its due
 * time, by Redis's clock, to its reservation); an ack counts in {@value HourglassMetrics#ACKED}, a nack in
 * {@value HourglassMetrics#RETRIED} or, when it was the job's last attempt, {@value HourglassMetrics#DEAD_LETTERED}.
 * How long a pull worker took is not known to the server, so {@value HourglassMetrics#HANDLER_DURATION} counts
 * callbacks only. Thread-safe.
 */
@Component
public class PullMetrics {
    private final MeterRegistry registry;

    /** @param registry the server's meter registry */
    public PullMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** @param deliveries jobs just reserved by a pull worker */
    void reserved(List<Delivery> deliveries) {
        Instant now = Instant.now();
        for (Delivery delivery : deliveries) {
            counter(HourglassMetrics.DELIVERED, delivery.topic()).increment();
            Duration lateness = Duration.between(delivery.dueAt(), now);
            // The due time is Redis's clock: a small difference from this machine's counts as on time.
            Timer.builder(HourglassMetrics.LATENESS)
                    .tag(HourglassMetrics.TAG_TOPIC, delivery.topic())
                    .register(registry)
                    .record(lateness.isNegative() ? Duration.ZERO : lateness);
        }
    }

    /** @param topic the topic of a job a pull worker acked */
    void acked(String topic) {
        counter(HourglassMetrics.ACKED, topic).increment();
    }

    /**
     * @param topic the topic of a job a pull worker nacked
     * @param state the job's state after the nack: {@link JobState#DEAD} when that was its last attempt
     */
    void nacked(String topic, JobState state) {
        counter(state == JobState.DEAD ? HourglassMetrics.DEAD_LETTERED : HourglassMetrics.RETRIED, topic)
                .increment();
    }

    private Counter counter(String name, String topic) {
        return Counter.builder(name)
                .tag(HourglassMetrics.TAG_TOPIC, topic)
                .baseUnit("jobs")
                .register(registry);
    }
}
