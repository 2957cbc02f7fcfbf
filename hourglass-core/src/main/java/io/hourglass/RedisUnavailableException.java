package io.hourglass;

/**
 * Thrown when Redis could not be reached or did not answer within the command timeout. The operation may or may not
 * have been applied (a schedule whose answer was lost can be retried safely with the same id and
 * {@link OnConflict#KEEP}); it was never silently dropped.
 */
public class RedisUnavailableException extends HourglassException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was being done
     * @param cause the client's failure
     */
    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
