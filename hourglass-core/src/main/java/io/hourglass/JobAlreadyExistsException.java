package io.hourglass;

/**
 * Thrown by {@link Hourglass#schedule(JobRequest)} with {@link OnConflict#REJECT} when the topic already has a job
 * with that id. Nothing was changed.
 */
public class JobAlreadyExistsException extends HourglassException {
    private static final long serialVersionUID = 1L;
    private final transient ScheduleResult existing;

    /**
     * @param existing the job that is already there (outcome {@code KEPT}); never null
     */
    public JobAlreadyExistsException(ScheduleResult existing) {
        super("job '" + existing.id() + "' already exists in topic '" + existing.topic() + "' (" + existing.state()
                + ", due " + existing.dueAt() + ")");
        this.existing = existing;
    }

    /**
     * @return the job that is already there: its state and due time; never null
     */
    public ScheduleResult existing() {
        return existing;
    }
}
