package io.hourglass.examples.meetingreminders;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The meetings and the reminders sent, in the application's database ({@code schema.sql}). Every change is one
 * conditional {@code UPDATE} or {@code INSERT}, so a job delivered twice, or late after the meeting was cancelled,
 * changes nothing. Thread-safe.
 */
@Repository
public class MeetingRepository {
    private final JdbcTemplate jdbc;

    /** @param jdbc the application's database */
    public MeetingRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** @param meeting a new meeting to store */
    public void insert(Meeting meeting) {
        jdbc.update(
                "INSERT INTO meeting (id, title, starts_at, ends_at, status) VALUES (?, ?, ?, ?, ?)",
                meeting.id(),
                meeting.title(),
                utc(meeting.startsAt()),
                utc(meeting.endsAt()),
                meeting.status().name());
    }

    /**
     * @param id a meeting's id
     * @return the meeting, or empty
     */
    public Optional<Meeting> find(String id) {
        return jdbc.query("SELECT * FROM meeting WHERE id = ?", MeetingRepository::meeting, id).stream()
                .findFirst();
    }

    /**
     * Moves a meeting that has not started.
     *
     * @param id the meeting
     * @param startsAt its new start
     * @param endsAt its new end
     * @return true if it was moved, false if there is none or it is no longer SCHEDULED
     */
    public boolean move(String id, Instant startsAt, Instant endsAt) {
        return jdbc.update(
                        "UPDATE meeting SET starts_at = ?, ends_at = ? WHERE id = ? AND status = 'SCHEDULED'",
                        utc(startsAt),
                        utc(endsAt),
                        id)
                == 1;
    }

    /**
     * @param id the meeting
     * @return true if it was cancelled, false if there is none or it is no longer SCHEDULED
     */
    public boolean cancel(String id) {
        return jdbc.update("UPDATE meeting SET status = 'CANCELLED' WHERE id = ? AND status = 'SCHEDULED'", id) == 1;
    }

    /**
     * @param id the meeting
     * @param now the time of the change
     * @return true if it went from SCHEDULED to IN_PROGRESS, false if it was not SCHEDULED
     */
    public boolean start(String id, Instant now) {
        return jdbc.update(
                        "UPDATE meeting SET status = 'IN_PROGRESS', started_at = ? WHERE id = ?"
                                + " AND status = 'SCHEDULED'",
                        utc(now),
                        id)
                == 1;
    }

    /**
     * @param id the meeting
     * @param now the time of the change
     * @return true if it went from SCHEDULED or IN_PROGRESS to FINISHED, false if it was neither
     */
    public boolean finish(String id, Instant now) {
        return jdbc.update(
                        "UPDATE meeting SET status = 'FINISHED', finished_at = ? WHERE id = ?"
                                + " AND status IN ('SCHEDULED', 'IN_PROGRESS')",
                        utc(now),
                        id)
                == 1;
    }

    /**
     * Records the reminder of a SCHEDULED meeting's current start, once.
     *
     * @param id the meeting
     * @param now the time the reminder is sent
     * @return the reminder to send, or empty when the meeting is not SCHEDULED or this start was reminded of already
     */
    public Optional<Reminder> recordReminder(String id, Instant now) {
        Optional<Meeting> meeting = find(id).filter(m -> m.status() == Meeting.Status.SCHEDULED);
        if (meeting.isEmpty()) {
            return Optional.empty();
        }
        try {
            jdbc.update(
                    "INSERT INTO reminder (meeting_id, starts_at, sent_at) VALUES (?, ?, ?)",
                    id,
                    utc(meeting.get().startsAt()),
                    utc(now));
            return Optional.of(new Reminder(id, meeting.get().startsAt(), now));
        } catch (DuplicateKeyException sentAlready) {
            return Optional.empty();
        }
    }

    /**
     * @param meetingId the meeting
     * @return the reminders sent for it, oldest first
     */
    public List<Reminder> reminders(String meetingId) {
        return jdbc.query(
                "SELECT * FROM reminder WHERE meeting_id = ? ORDER BY sent_at",
                (row, n) ->
                        new Reminder(row.getString("meeting_id"), instant(row, "starts_at"), instant(row, "sent_at")),
                meetingId);
    }

    private static Meeting meeting(ResultSet row, int n) throws SQLException {
        return new Meeting(
                row.getString("id"),
                row.getString("title"),
                instant(row, "starts_at"),
                instant(row, "ends_at"),
                Meeting.Status.valueOf(row.getString("status")),
                instant(row, "started_at"),
                instant(row, "finished_at"));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
