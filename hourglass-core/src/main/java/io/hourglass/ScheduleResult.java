package io.hourglass;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@link Hourglass#schedule(JobRequest)} did.
 *
 * @param id the job's id (the caller's, or the generated one); never null
 * @param topic the job's topic; never null
 *     <p>An id stays taken for the job's idempotency window after its job is gone
 *     ({@link HourglassBuilder#idempotencyWindow(java.time.Duration)}): a schedule of it in that time is
 *     {@link Outcome#KEPT} (or refused) with {@link #ended()} saying how the earlier job ended and {@link #endedAt()}
 *     when; there is no job then, so {@code state} and {@code dueAt} are null.
 * @param id the job's id (the caller's, or the generated one); never null
 * @param topic the job's topic; never null
 * @param state the job's state right after the call: {@code SCHEDULED}, or {@code READY} when already due; for
 *     {@link Outcome#KEPT} the existing job's state; null when the id is reserved by a job that ended
 * @param dueAt when the job is due, by the Redis server's clock, millisecond precision; null exactly when {@code state}
 *     is
 * @param outcome whether the job was created, replaced or kept; never null
 * @param ended how the earlier job with this id ended, when the id was still reserved by it (outcome {@code KEPT});
 *     else null
 * @param endedAt when the earlier job ended (acked, cancelled, or went to the dead letters), by the Redis server's
 *     clock, ms precision; null exactly when {@code ended} is
 */
public record ScheduleResult(
        String id, String topic, JobState state, Instant dueAt, Outcome outcome, Ended ended, Instant endedAt) {

    /** How a schedule call treated the id. */
    public enum Outcome {
        /** No job had this id; a new one was created. */
        CREATED,
        /** A job had this id and was replaced ({@link OnConflict#REPLACE}). */
        REPLACED,
        /** A job had this id and was kept unchanged ({@link OnConflict#KEEP}). */
        KEPT
    }

    /** How the earlier job of a still reserved id ended. */
    public enum Ended {
        /** It was acked (completed). */
        ACKED,
        /** It was cancelled. */
        CANCELLED,
        /** It went to the dead letters, and the dead letter was deleted. */
        DEAD
    }

    /**
     * Checks the components: {@code id}, {@code topic} and {@code outcome} never null; either {@code state} and
     * {@code dueAt} or {@code ended} and {@code endedAt} given, not both.
     *
     * @throws NullPointerException or IllegalArgumentException naming the component otherwise
     */
    public ScheduleResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(outcome, "outcome");
        if (ended == null) {
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(dueAt, "dueAt");
            if (endedAt != null) {
                throw new IllegalArgumentException("endedAt: given without ended");
            }
        } else {
            Objects.requireNonNull(endedAt, "endedAt");
            if (state != null || dueAt != null) {
                throw new IllegalArgumentException("state: must be null when ended is given");
            }
        }
    }

    /**
     * A result about a job that exists: {@code ended} and {@code endedAt} null.
     *
     * @param id the job's id; not null
     * @param topic the job's topic; not null
     * @param state its state; not null
     * @param dueAt its due time; not null
     * @param outcome created, replaced or kept; not null
     */
    public ScheduleResult(String id, String topic, JobState state, Instant dueAt, Outcome outcome) {
        this(id, topic, state, dueAt, outcome, null, null);
    }
}
