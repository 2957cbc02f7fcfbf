package io.hourglass.examples.meetingreminders;

import java.time.Instant;

/**
 * A reminder that was sent.
 *
 * @param meetingId the meeting
 * @param startsAt the start time the reminder announced
 * @param sentAt when it was sent
 */
public record Reminder(String meetingId, Instant startsAt, Instant sentAt) {}
