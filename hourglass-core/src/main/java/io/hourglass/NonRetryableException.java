package io.hourglass;

/**
 * Thrown by a {@link JobHandler} to send the job to the dead letters at once, whatever attempts it has left: for a
 * failure that no retry can mend (a payload that cannot be deserialised, a request the receiver will always refuse).
 * The job's last error is this exception's class and message. It also counts when it is the cause, or a cause of a
 * cause, of what the handler throws, so a framework may wrap it. Any other exception is retried on the job's backoff.
 *
 * <p>Unchecked, so a handler may throw it from code that declares no exceptions.
 */
public class NonRetryableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message why the job cannot succeed, kept as its last error; may be null */
    public NonRetryableException(String message) {
        super(message);
    }

    /**
     * @param message why the job cannot succeed, kept as its last error; may be null
     * @param cause the underlying failure; may be null
     */
    public NonRetryableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param failure what a handler threw; may be null
     * @return the first {@link NonRetryableException} in {@code failure}'s cause chain (itself included), or null
     */
    public static NonRetryableException find(Throwable failure) {
        int depth = 0;
        // Bounded: a cause chain may loop.
        for (Throwable t = failure; t != null && depth < 100; t = t.getCause(), depth++) {
            if (t instanceof NonRetryableException n) {
                return n;
            }
        }
        return null;
    }
}
