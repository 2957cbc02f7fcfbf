package io.hourglass.examples.meetingreminders;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code meetings.*}.
 *
 * @param reminderLead how long before a meeting starts its reminder is sent
 */
@ConfigurationProperties("meetings")
public record MeetingProperties(Duration reminderLead) {

    /** @param reminderLead how long before the start the reminder goes out; 15 minutes when not set */
    public MeetingProperties {
        reminderLead = reminderLead == null ? Duration.ofMinutes(15) : reminderLead;
    }
}
