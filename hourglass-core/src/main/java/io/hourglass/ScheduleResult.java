package io.hourglass;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@link Hourglass#schedule(JobRequest)} did.
 *
 * @param id the job's id (the caller's, or the generated one); never null
 * @param topic the job's topic; never null
 * @param state the job's state right after the call: {@code SCHEDULED}, or {@code READY} when already due; for
 *     {@link Outcome#KEPT} the existing job's state
 * @param dueAt when the job is due, by the Redis server's clock, millisecond precision; never null
 * @param outcome whether the job was created, replaced or kept
 */
public record ScheduleResult(String id, String topic, JobState state, Instant dueAt, Outcome outcome) {

    /** How a schedule call treated the id. */
    public enum Outcome {
        /** No job had this id; a new one was created. */
        CREATED,
        /** A job had this id and was replaced ({@link OnConflict#REPLACE}). */
        REPLACED,
        /** A job had this id and was kept unchanged ({@link OnConflict#KEEP}). */
        KEPT
    }

    /** Checks that no component is null. */
    public ScheduleResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(outcome, "outcome");
    }
}
