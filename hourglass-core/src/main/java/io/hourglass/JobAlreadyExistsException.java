package io.hourglass;

/**
 * Thrown by {@link Hourglass#schedule(JobRequest)} with {@link OnConflict#REJECT} when the topic already has a job with
 * that id, or had one that ended (acked, cancelled, dead letter deleted) less than its idempotency window ago
 * ({@link ScheduleResult#ended()} and {@link ScheduleResult#endedAt()} of {@link #existing()} say how and when).
 * Nothing was changed.
 */
public class JobAlreadyExistsException extends HourglassException {
    private static final long serialVersionUID = 1L;
    private final transient ScheduleResult existing;

    /** @param existing the job that is already there, or the id's reservation (outcome {@code KEPT}); never null */
    public JobAlreadyExistsException(ScheduleResult existing) {
        super(
                existing.ended() == null
                        ? "job '" + existing.id() + "' already exists in topic '" + existing.topic() + "' ("
                                + existing.state() + ", due " + existing.dueAt() + ")"
                        : "job '" + existing.id() + "' of topic '" + existing.topic() + "' ended " + existing.ended()
                                + " at " + existing.endedAt() + "; its id stays reserved for the idempotency window");
        this.existing = existing;
    }

    /**
     * @return the job that is already there (its state and due time), or how and when the earlier job with this id
     *     ended; never null
     */
    public ScheduleResult existing() {
        return existing;
    }
}
