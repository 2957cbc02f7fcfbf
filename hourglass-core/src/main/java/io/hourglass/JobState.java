package io.hourglass;

/**
 * Where a job is in its life. A job is in exactly one state at a time (invariant 2 in ARCHITECTURE.md); a job that was
 * acked or cancelled no longer exists and has no state.
 *
 * <pre>
 * SCHEDULED --due--> READY --claim--> ACTIVE --ack--> (gone)
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
    DEAD
}
