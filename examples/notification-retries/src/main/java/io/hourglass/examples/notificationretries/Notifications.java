package io.hourglass.examples.notificationretries;

import io.hourglass.Job;
import io.hourglass.JobInfo;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Sends notifications through Hourglass jobs: {@link #send} schedules a job due now with the stepped backoff and its
 * attempts; {@link #deliver}, the topic's listener, POSTs it to the gateway. Returning acks the job; a failed POST
 * throws, so the job is retried after its next backoff step, and goes to the dead letters, with the error as its last
 * error, when its attempts are exhausted. Thread-safe.
 */
@Service
public class Notifications {
    /** The topic of the notification jobs. */
    public static final String TOPIC = "notification";

    private static final Logger log = LoggerFactory.getLogger(Notifications.class);

    private final HourglassTemplate hourglass;
    private final NotificationGateway gateway;
    private final NotificationProperties properties;

    /**
     * @param hourglass schedules the jobs and reads their state
     * @param gateway sends the notifications
     * @param properties the backoff steps
     */
    public Notifications(HourglassTemplate hourglass, NotificationGateway gateway, NotificationProperties properties) {
        this.hourglass = hourglass;
        this.gateway = gateway;
        this.properties = properties;
    }

    /**
     * Schedules a notification's job, due now.
     *
     * @param notification what to send, and to whom
     * @return the notification's id (its job's id)
     */
    public String send(Notification notification) {
        return hourglass
                .schedule(TOPIC, notification, job -> job.backoff(properties.backoff())
                        .maxAttempts(properties.maxAttempts()))
                .id();
    }

    /**
     * The listener: POSTs the notification to the gateway, once per attempt.
     *
     * @param notification the job's payload
     * @param job the delivery: its id is the notification's, its attempt counts from 1
     */
    @HourglassListener(topic = TOPIC)
    public void deliver(Notification notification, Job job) {
        log.info(
                "notification {} to {}: attempt {} of {}",
                job.id(),
                notification.to(),
                job.attempt(),
                job.maxAttempts());
        gateway.send(job.id(), job.attempt(), notification);
    }

    /**
     * @param id a notification's id
     * @return where its job is while it is not sent yet (waiting, being sent or dead); empty once it is sent, or when
     *     there is no such notification
     */
    public Optional<NotificationStatus> status(String id) {
        return hourglass.hourglass().get(TOPIC, id).map(NotificationStatus::of);
    }

    /**
     * @param limit how many at most, 1 to 1000
     * @return the notifications whose attempts are exhausted, oldest death first, with their last errors
     */
    public List<NotificationStatus> deadLetters(int limit) {
        return hourglass.hourglass().deadLetters(TOPIC, 0, limit).stream()
                .map(NotificationStatus::of)
                .toList();
    }

    /**
     * Where a notification's job is.
     *
     * @param id the notification's id
     * @param state its job's state: {@code SCHEDULED} (waiting for a retry), {@code READY}, {@code ACTIVE} or
     *     {@code DEAD}
     * @param attempt attempts so far
     * @param maxAttempts attempts allowed
     * @param lastError the error of the last failed attempt, or null
     */
    public record NotificationStatus(String id, String state, int attempt, int maxAttempts, String lastError) {

        static NotificationStatus of(JobInfo job) {
            return new NotificationStatus(
                    job.id(), job.state().name(), job.attempt(), job.maxAttempts(), job.lastError());
        }
    }
}
