package io.hourglass.examples.meetingreminders;

import java.time.Instant;

/**
 * A meeting, as the database holds it.
 *
 * @param id its id, also the id of its three jobs
 * @param title what it is about
 * @param startsAt when it starts
 * @param endsAt when it ends, after {@code startsAt}
 * @param status where it is
 * @param startedAt when it went IN_PROGRESS, or null
 * @param finishedAt when it went FINISHED, or null
 */
public record Meeting(
        String id,
        String title,
        Instant startsAt,
        Instant endsAt,
        Status status,
        Instant startedAt,
        Instant finishedAt) {

    /** Where a meeting is. */
    public enum Status {
        /** Created, not started yet; the only status in which it may be moved. */
        SCHEDULED,
        /** Its start time has come. */
        IN_PROGRESS,
        /** Its end time has come. */
        FINISHED,
        /** Called off before it started. */
        CANCELLED
    }
}
