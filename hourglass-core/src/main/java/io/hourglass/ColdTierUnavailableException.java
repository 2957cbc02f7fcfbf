package io.hourglass;

/**
 * Thrown when the cold tier ({@link HourglassBuilder#coldTier}) cannot be reached: a job due beyond the horizon was not
 * stored, or a lookup, cancel or reschedule could not see the cold tier. Nothing was changed in the cold tier; retry
 * with the same id and {@link OnConflict#KEEP} to be safe.
 */
public class ColdTierUnavailableException extends HourglassException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was being done; never holds a password
     * @param cause the store's failure
     */
    public ColdTierUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
