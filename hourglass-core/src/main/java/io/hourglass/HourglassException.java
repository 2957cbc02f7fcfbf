package io.hourglass;

/** Base class of the exceptions Hourglass throws for queue conditions (not for bad arguments). */
public class HourglassException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, for people */
    public HourglassException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, for people
     * @param cause the underlying failure, may be null
     */
    public HourglassException(String message, Throwable cause) {
        super(message, cause);
    }
}
