package io.hourglass;

import java.time.Duration;

/**
 * Observes what an {@link Hourglass} instance does, e.g. to count it in Micrometer. Register one with
 * {@link HourglassBuilder#events(JobEvents)}. Every method has an empty default, so implement only what you need.
 *
 * <p>Called synchronously on Hourglass's own threads (handler threads and Lettuce's I/O threads): implementations must
 * be thread-safe, fast and must not block. An exception thrown by a method is logged and otherwise ignored.
 */
public interface JobEvents {

    /** No-op events: the default. */
    JobEvents NONE = new JobEvents() {};

    /**
     * A job was scheduled (created or replaced) by this instance.
     *
     * @param result the job's id, topic, state and due time
     */
    default void scheduled(ScheduleResult result) {}

    /**
     * A handler of this instance is about to run a job.
     *
     * @param job the delivery
     * @param lateness how long after its due time the handler starts, by this machine's clock; zero or positive (a
     *     small negative clock difference between machines is reported as zero)
     */
    default void delivered(Job job, Duration lateness) {}

    /**
     * A handler returned normally and the job is being acked.
     *
     * @param job the delivery
     * @param handlerTime how long the handler ran
     */
    default void acked(Job job, Duration handlerTime) {}

    /**
     * A handler failed (threw or timed out) and the job is being nacked: it will be retried after its backoff, or
     * dead-lettered when this was its last attempt ({@code job.attempt() >= job.maxAttempts()}).
     *
     * @param job the delivery
     * @param handlerTime how long the handler ran before it failed
     * @param error what the handler threw, or a {@link java.util.concurrent.TimeoutException} for a timeout
     */
    default void failed(Job job, Duration handlerTime, Throwable error) {}

    /**
     * A job went to the dead letters through this instance: its handler's last attempt failed or threw a
     * {@link NonRetryableException}, a pull worker's {@code nack} on the last attempt or its {@code deadLetter} went
     * through this instance, or a claim of this instance found the job's lease expired on its last attempt or the job
     * expired before delivery ({@link OnExpiry#DEAD_LETTER}). Called once this instance knows, right after the line the
     * failure log writes (whether or not that line is logged). Deaths caused by other processes are not seen here: to
     * hear of every death of a job, give it a {@link JobRequest.Builder#failureCallbackUrl}.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param lastError the error kept with the dead letter, e.g. {@code expired} or {@code lease expired on attempt 3}
     */
    default void deadLettered(String topic, String id, String lastError) {}
}
