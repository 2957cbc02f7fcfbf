package io.hourglass.examples.meetingreminders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A meeting-room service (the meeting-room design of docs/design.md): a meeting's start, end and reminder are delayed
 * jobs in Hourglass, scheduled when the meeting is created, rescheduled when it is moved and cancelled when it is
 * cancelled. Their listeners move the meeting, kept in an embedded H2 database, to IN_PROGRESS and FINISHED on time and
 * send the reminder.
 */
@SpringBootApplication
@EnableConfigurationProperties(MeetingProperties.class)
public class MeetingRemindersApplication {

    /** @param args Spring Boot arguments, e.g. {@code --meetings.reminder-lead=5m} */
    public static void main(String[] args) {
        SpringApplication.run(MeetingRemindersApplication.class, args);
    }
}
