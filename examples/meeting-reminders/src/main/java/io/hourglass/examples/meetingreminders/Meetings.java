package io.hourglass.examples.meetingreminders;

import io.hourglass.OnConflict;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Creates, moves and cancels meetings, and runs their three jobs, one topic each: {@link #START} moves a meeting to
 * IN_PROGRESS, {@link #END} to FINISHED, {@link #REMIND} sends the reminder {@code meetings.reminder-lead} before the
 * start. The jobs' ids are the meeting's id. A job is delivered at least once, so each listener changes the database
 * only when the meeting is in the status the job expects (a conditional update), and sends a reminder only once per
 * start time: a repeated delivery changes nothing. Thread-safe.
 */
@Service
public class Meetings {
    /** The topic of the jobs that start meetings. */
    public static final String START = "meeting-start";
    /** The topic of the jobs that finish meetings. */
    public static final String END = "meeting-end";
    /** The topic of the jobs that send reminders. */
    public static final String REMIND = "meeting-reminder";

    private static final Logger log = LoggerFactory.getLogger(Meetings.class);

    private final MeetingRepository meetings;
    private final HourglassTemplate hourglass;
    private final MeetingProperties properties;

    /**
     * @param meetings the database
     * @param hourglass schedules, reschedules and cancels the jobs
     * @param properties the reminder's lead
     */
    public Meetings(MeetingRepository meetings, HourglassTemplate hourglass, MeetingProperties properties) {
        this.meetings = meetings;
        this.hourglass = hourglass;
        this.properties = properties;
    }

    /**
     * Stores a meeting and schedules its start, end and reminder jobs. A reminder whose time has passed already is sent
     * at once.
     *
     * @param title what it is about
     * @param startsAt when it starts (kept to the millisecond)
     * @param endsAt when it ends, after {@code startsAt}
     * @return the SCHEDULED meeting
     * @throws IllegalArgumentException when it would end before it starts
     */
    public Meeting create(String title, Instant startsAt, Instant endsAt) {
        Meeting meeting = new Meeting(
                UUID.randomUUID().toString(),
                title,
                millis(startsAt),
                millis(endsAt),
                Meeting.Status.SCHEDULED,
                null,
                null);
        checkTimes(meeting.startsAt(), meeting.endsAt());
        meetings.insert(meeting);
        dueTimes(meeting.startsAt(), meeting.endsAt())
                .forEach((topic, runAt) -> hourglass.schedule(topic, meeting.id(), meeting.id(), runAt));
        return meeting;
    }

    /**
     * Moves a meeting that has not started: its jobs are rescheduled to the new times (a job that ran already, such as
     * a sent reminder, is scheduled again).
     *
     * @param id the meeting
     * @param startsAt its new start
     * @param endsAt its new end, after {@code startsAt}
     * @return the meeting as it is now: moved, or unchanged when it is no longer SCHEDULED; empty when there is none
     * @throws IllegalArgumentException when it would end before it starts
     */
    public Optional<Meeting> move(String id, Instant startsAt, Instant endsAt) {
        Instant start = millis(startsAt);
        Instant end = millis(endsAt);
        checkTimes(start, end);
        if (meetings.move(id, start, end)) {
            dueTimes(start, end).forEach((topic, runAt) -> {
                if (hourglass.reschedule(topic, id, runAt).isEmpty()) {
                    hourglass.schedule(topic, id, job -> job.id(id).runAt(runAt).onConflict(OnConflict.REPLACE));
                }
            });
        }
        return meetings.find(id);
    }

    /**
     * Cancels a meeting that has not started, and its jobs.
     *
     * @param id the meeting
     * @return the meeting as it is now: CANCELLED, or unchanged when it is no longer SCHEDULED; empty when there is
     *     none
     */
    public Optional<Meeting> cancel(String id) {
        if (meetings.cancel(id)) {
            for (String topic : new String[] {START, END, REMIND}) {
                hourglass.cancel(topic, id);
            }
        }
        return meetings.find(id);
    }

    /**
     * @param id a meeting's id
     * @return the meeting, or empty
     */
    public Optional<Meeting> get(String id) {
        return meetings.find(id);
    }

    /**
     * The {@link #START} listener: a SCHEDULED meeting goes IN_PROGRESS.
     *
     * @param meetingId the job's payload
     */
    @HourglassListener(topic = START)
    public void start(String meetingId) {
        if (meetings.start(meetingId, Instant.now())) {
            log.info("meeting {} is in progress", meetingId);
        }
    }

    /**
     * The {@link #END} listener: a SCHEDULED or IN_PROGRESS meeting goes FINISHED.
     *
     * @param meetingId the job's payload
     */
    @HourglassListener(topic = END)
    public void finish(String meetingId) {
        if (meetings.finish(meetingId, Instant.now())) {
            log.info("meeting {} is finished", meetingId);
        }
    }

    /**
     * The {@link #REMIND} listener: records the reminder of a SCHEDULED meeting's current start, once, and sends it.
     *
     * @param meetingId the job's payload
     */
    @HourglassListener(topic = REMIND)
    public void remind(String meetingId) {
        meetings.recordReminder(meetingId, Instant.now())
                .ifPresent(reminder -> log.info("reminder: meeting {} starts at {}", meetingId, reminder.startsAt()));
    }

    private Map<String, Instant> dueTimes(Instant startsAt, Instant endsAt) {
        return Map.of(START, startsAt, END, endsAt, REMIND, startsAt.minus(properties.reminderLead()));
    }

    private static void checkTimes(Instant startsAt, Instant endsAt) {
        if (!endsAt.isAfter(startsAt)) {
            throw new IllegalArgumentException("endsAt: must be after startsAt, got " + startsAt + " to " + endsAt);
        }
    }

    private static Instant millis(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
