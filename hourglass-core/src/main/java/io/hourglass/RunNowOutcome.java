package io.hourglass;

/** What {@link Inspector#runNow} did with a job. */
public enum RunNowOutcome {
    /** The job was SCHEDULED; it is READY now, due at the Redis server's now, and the workers were woken. */
    MADE_READY,
    /** The job was READY already; it keeps its earlier due time and its place in the line. */
    ALREADY_READY,
    /** Refused, nothing changed: the job is leased to a worker. */
    ACTIVE,
    /** Refused, nothing changed: the job is a dead letter (requeue it instead). */
    DEAD,
    /** There is no such job. */
    NOT_FOUND
}
