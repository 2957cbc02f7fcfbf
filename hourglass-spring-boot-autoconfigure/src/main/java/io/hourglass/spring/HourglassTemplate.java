package io.hourglass.spring;

import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.core.ParameterizedTypeReference;

/**
 * Schedules, reads, cancels and reschedules jobs with typed payloads: the Spring-style front of {@link Hourglass}.
 * Payloads are converted by the {@link PayloadConverter}: {@code byte[]} and {@code String} as they are, any other type
 * as JSON through the application's Jackson mapper, so that an {@link HourglassListener} method taking the same type
 * receives an equal value. Thread-safe; auto-configured as a bean.
 *
 * <pre>{@code
 * template.schedule("order-timeout", "order-42", new OrderTimeout(42), Duration.ofMinutes(10));
 * // the order was paid
 * template.cancel("order-timeout", "order-42");
 * }</pre>
 *
 * <p>Every method talks to Redis and may throw {@link io.hourglass.RedisUnavailableException}; bad arguments throw
 * {@link IllegalArgumentException} naming the field, with nothing changed.
 */
public class HourglassTemplate {
    private final Hourglass hourglass;
    private final PayloadConverter payloads;
    private final TopicJobDefaults topicDefaults;

    /**
     * A template without per-topic defaults.
     *
     * @param hourglass the instance to use; not null
     * @param payloads the payload conversion; not null
     */
    public HourglassTemplate(Hourglass hourglass, PayloadConverter payloads) {
        this(hourglass, payloads, TopicJobDefaults.NONE);
    }

    /**
     * @param hourglass the instance to use; not null
     * @param payloads the payload conversion; not null
     * @param topicDefaults options of each topic's jobs that the caller does not set (the auto-configured template
     *     takes them from the {@link HourglassListener} methods); not null
     */
    public HourglassTemplate(Hourglass hourglass, PayloadConverter payloads, TopicJobDefaults topicDefaults) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        this.payloads = Objects.requireNonNull(payloads, "payloads");
        this.topicDefaults = Objects.requireNonNull(topicDefaults, "topicDefaults");
    }

    /** @return the underlying instance, for what this template does not cover (dead letters, pull workers, …) */
    public Hourglass hourglass() {
        return hourglass;
    }

    /**
     * Schedules a job with a generated id, due {@code delay} from now by Redis's clock.
     *
     * @param topic the topic
     * @param payload the payload; not null
     * @param delay zero or positive
     * @return the job's generated id, state and due time
     */
    public ScheduleResult schedule(String topic, Object payload, Duration delay) {
        return schedule(topic, payload, job -> job.delay(delay));
    }

    /**
     * Schedules a job with the given id, due {@code delay} from now by Redis's clock.
     *
     * @param topic the topic
     * @param id the job's id, unique within the topic
     * @param payload the payload; not null
     * @param delay zero or positive
     * @return the job's state and due time
     * @throws JobAlreadyExistsException when the topic already has a job with this id
     */
    public ScheduleResult schedule(String topic, String id, Object payload, Duration delay) {
        return schedule(topic, payload, job -> job.id(id).delay(delay));
    }

    /**
     * Schedules a job with the given id, due at {@code runAt} by Redis's clock (in the past means now).
     *
     * @param topic the topic
     * @param id the job's id, unique within the topic
     * @param payload the payload; not null
     * @param runAt the due instant; not null
     * @return the job's state and due time
     * @throws JobAlreadyExistsException when the topic already has a job with this id
     */
    public ScheduleResult schedule(String topic, String id, Object payload, Instant runAt) {
        return schedule(topic, payload, job -> job.id(id).runAt(runAt));
    }

    /**
     * Schedules a job with any of {@link JobRequest}'s options: id, delay or run-at, max attempts, backoff, lease,
     * callback URL, what to do when the id exists.
     *
     * <pre>{@code
     * template.schedule("refund-poll", refund, job -> job.id(refund.id()).delay(Duration.ofSeconds(30))
     *     .backoff(Backoff.fixed(Duration.ofMinutes(1))).maxAttempts(60).onConflict(OnConflict.KEEP));
     * }</pre>
     *
     * @param topic the topic
     * @param payload the payload; not null (the options must not set another)
     * @param options sets the request's options; not null. Without a delay or run-at the job is due now. Max attempts,
     *     backoff and lease it leaves unset are the topic's {@link HourglassListener} attributes, if any, else the
     *     instance's defaults.
     * @return the job's id, state and due time
     * @throws JobAlreadyExistsException when the id exists and {@link io.hourglass.OnConflict#REJECT} applies
     */
    public ScheduleResult schedule(String topic, Object payload, Consumer<JobRequest.Builder> options) {
        Objects.requireNonNull(options, "options");
        JobRequest.Builder request = JobRequest.builder(topic).payload(payloads.toBytes(payload));
        topicDefaults.applyTo(topic, request);
        options.accept(request);
        return hourglass.schedule(request.build());
    }

    /**
     * Reads a job and decodes its payload.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param payloadType the payload's class
     * @param <T> the payload's type
     * @return the job, or empty when there is none (never scheduled, acked or cancelled)
     * @throws IllegalArgumentException when the payload cannot be read as {@code payloadType}
     */
    public <T> Optional<TypedJobInfo<T>> get(String topic, String id, Class<T> payloadType) {
        return get(topic, id, (Type) payloadType);
    }

    /**
     * Reads a job and decodes its payload to a generic type, e.g. {@code new ParameterizedTypeReference<List<Order>>()
     * {}}.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param payloadType the payload's type
     * @param <T> the payload's type
     * @return the job, or empty when there is none
     * @throws IllegalArgumentException when the payload cannot be read as {@code payloadType}
     */
    public <T> Optional<TypedJobInfo<T>> get(String topic, String id, ParameterizedTypeReference<T> payloadType) {
        return get(topic, id, payloadType.getType());
    }

    @SuppressWarnings("unchecked")
    private <T> Optional<TypedJobInfo<T>> get(String topic, String id, Type payloadType) {
        Objects.requireNonNull(payloadType, "payloadType");
        Optional<JobInfo> job = hourglass.get(topic, id);
        return job.map(info -> new TypedJobInfo<>(info, (T) payloads.fromBytes(info.payload(), payloadType)));
    }

    /**
     * Removes a job that is not finished, in any state.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return true if a job was removed, false if there was none
     */
    public boolean cancel(String topic, String id) {
        return hourglass.cancel(topic, id);
    }

    /**
     * Moves a job to be due {@code delay} from now by Redis's clock.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param delay zero or positive
     * @return the new state and due time, or empty when there is no such job
     * @throws io.hourglass.HourglassException when the job is {@code DEAD}
     */
    public Optional<ScheduleResult> reschedule(String topic, String id, Duration delay) {
        return hourglass.reschedule(topic, id, delay);
    }

    /**
     * Moves a job to a new due instant (in the past means now).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param runAt the new due instant; not null
     * @return the new state and due time, or empty when there is no such job
     * @throws io.hourglass.HourglassException when the job is {@code DEAD}
     */
    public Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt) {
        return hourglass.reschedule(topic, id, runAt);
    }
}
