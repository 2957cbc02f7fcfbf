package io.hourglass;

/** What {@link Hourglass#schedule(JobRequest)} does when a job with the same topic and id already exists. */
public enum OnConflict {
    /** Change nothing and throw {@link JobAlreadyExistsException}. The default. */
    REJECT,
    /**
     * Put the new job in the old one's place: new payload, due time and options, attempts back to 0. A delivery of the
     * old job that is in progress loses its receipt, so its ack is refused.
     */
    REPLACE,
    /** Change nothing and report the existing job, as an idempotent "schedule once" (outcome {@code KEPT}). */
    KEEP
}
