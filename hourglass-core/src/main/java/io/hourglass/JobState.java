package io.hourglass;

import java.time.Duration;

/**
 * Where a job is in its life. A job is in exactly one state at a time (invariant 2 in ARCHITECTURE.md); a job that was
 * cancelled no longer exists and has no state, nor has an acked job unless its topic keeps completed jobs for a while
 * ({@link HourglassBuilder#completedRetention(String, Duration)}): it is then {@code COMPLETED} until its retention
 * ends.
 *
 * <pre>
 * SCHEDULED --due--> READY --claim--> ACTIVE --ack--> (gone), or COMPLETED while retained
 *     ^                ^                 |  \--nack, attempts left--> SCHEDULED (after backoff)
 *     |                +--lease expired--+  \--nack, attempts exhausted--> DEAD --requeue--> READY
 * </pre>
 */
public enum JobState {
    /** Waiting for its due time. */
    SCHEDULED,
    /** Due, waiting for a free worker. */
    READY,
    /** Leased to one worker until its lease deadline; only the holder of the current receipt may finish it. */
    ACTIVE,
    /** Attempts exhausted; kept in the topic's dead letters with its last error until requeued or deleted. */
    DEAD,
    /**
     * Acked, and kept readable by id with its completion time, attempts and result for the topic's retention
     * ({@link HourglassBuilder#completedRetention(String, Duration)}); {@link Hourglass#get} reads it, and the
     * inspector counts ({@link TopicOverview#completed()}) and lists ({@link Inspector#jobs}) it. Nothing moves it on:
     * it is deleted when its retention ends.
     */
    COMPLETED
}
