package io.hourglass.spring.metrics;

import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.ScheduleResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts what this application's {@link io.hourglass.Hourglass} does, as Micrometer meters tagged with
 * {@value #TAG_TOPIC}:
 *
 * <ul>
 *   <li>{@value #SCHEDULED}, {@value #DELIVERED}, {@value #ACKED}: jobs scheduled by this application, started by its
 *       handlers, acked after their handler returned;
 *   <li>{@value #RETRIED}, {@value #DEAD_LETTERED}: failed deliveries, split by whether the job has attempts left
 *       ({@code job.attempt() < job.maxAttempts()}) or goes to the dead letters;
 *   <li>{@value #LATENESS}: a timer of how long after its due time each job's handler started;
 *   <li>{@value #HANDLER_DURATION}: a timer of handler run time, tagged {@value #TAG_OUTCOME} = {@code acked} or
 *       {@code failed}.
 * </ul>
 *
 * <p>A {@link JobEvents}: called on Hourglass's threads, so it only looks meters up in a map and records. Thread-safe.
 */
public final class HourglassMetrics implements JobEvents {
    /** Counter: jobs scheduled (created or replaced) by this application. */
    public static final String SCHEDULED = "hourglass.jobs.scheduled";
    /** Counter: jobs handed to this application's handlers. */
    public static final String DELIVERED = "hourglass.jobs.delivered";
    /** Counter: jobs whose handler returned normally. */
    public static final String ACKED = "hourglass.jobs.acked";
    /** Counter: failed deliveries that will be retried after the job's backoff. */
    public static final String RETRIED = "hourglass.jobs.retried";
    /** Counter: failed deliveries that were the job's last attempt: the job goes to the dead letters. */
    public static final String DEAD_LETTERED = "hourglass.jobs.dead.lettered";
    /** Timer: how long after its due time a job's handler started. */
    public static final String LATENESS = "hourglass.job.lateness";
    /** Timer: how long handlers ran. */
    public static final String HANDLER_DURATION = "hourglass.job.handler.duration";
    /** Tag: the job's topic. */
    public static final String TAG_TOPIC = "topic";
    /** Tag of {@value #HANDLER_DURATION}: {@code acked} or {@code failed}. */
    public static final String TAG_OUTCOME = "outcome";

    private final MeterRegistry registry;
    private final Map<String, TopicMeters> topics = new ConcurrentHashMap<>();

    /** @param registry where to register the meters; not null */
    public HourglassMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void scheduled(ScheduleResult result) {
        meters(result.topic()).scheduled.increment();
    }

    @Override
    public void delivered(Job job, Duration lateness) {
        TopicMeters meters = meters(job.topic());
        meters.delivered.increment();
        meters.lateness.record(lateness);
    }

    @Override
    public void acked(Job job, Duration handlerTime) {
        TopicMeters meters = meters(job.topic());
        meters.acked.increment();
        meters.handlerAcked.record(handlerTime);
    }

    @Override
    public void failed(Job job, Duration handlerTime, Throwable error) {
        TopicMeters meters = meters(job.topic());
        (job.attempt() >= job.maxAttempts() ? meters.deadLettered : meters.retried).increment();
        meters.handlerFailed.record(handlerTime);
    }

    private TopicMeters meters(String topic) {
        return topics.computeIfAbsent(topic, t -> new TopicMeters(registry, t));
    }

    /** The meters of one topic, registered once. */
    private static final class TopicMeters {
        final Counter scheduled;
        final Counter delivered;
        final Counter acked;
        final Counter retried;
        final Counter deadLettered;
        final Timer lateness;
        final Timer handlerAcked;
        final Timer handlerFailed;

        TopicMeters(MeterRegistry registry, String topic) {
            scheduled = counter(registry, SCHEDULED, topic, "Jobs scheduled (created or replaced) by this application");
            delivered = counter(registry, DELIVERED, topic, "Jobs handed to this application's handlers");
            acked = counter(registry, ACKED, topic, "Jobs whose handler returned normally");
            retried = counter(registry, RETRIED, topic, "Failed deliveries that will be retried after the backoff");
            deadLettered =
                    counter(registry, DEAD_LETTERED, topic, "Failed last attempts: jobs gone to the dead letters");
            lateness = Timer.builder(LATENESS)
                    .tag(TAG_TOPIC, topic)
                    .description("How long after its due time a job's handler started")
                    .register(registry);
            handlerAcked = handlerTimer(registry, topic, "acked");
            handlerFailed = handlerTimer(registry, topic, "failed");
        }

        private static Counter counter(MeterRegistry registry, String name, String topic, String description) {
            return Counter.builder(name)
                    .tag(TAG_TOPIC, topic)
                    .description(description)
                    .baseUnit("jobs")
                    .register(registry);
        }

        private static Timer handlerTimer(MeterRegistry registry, String topic, String outcome) {
            return Timer.builder(HANDLER_DURATION)
                    .tag(TAG_TOPIC, topic)
                    .tag(TAG_OUTCOME, outcome)
                    .description("How long job handlers ran")
                    .register(registry);
        }
    }
}
