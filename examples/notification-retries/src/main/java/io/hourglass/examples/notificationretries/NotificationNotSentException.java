package io.hourglass.examples.notificationretries;

/**
 * The gateway did not take a notification. Thrown from the listener, it fails the delivery, so Hourglass retries the
 * job after its next backoff step; its message becomes the job's last error.
 */
public class NotificationNotSentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message why, e.g. {@code gateway answered 503} */
    public NotificationNotSentException(String message) {
        super(message);
    }
}
