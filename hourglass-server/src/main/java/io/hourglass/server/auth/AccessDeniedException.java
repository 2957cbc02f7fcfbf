package io.hourglass.server.auth;

/** Thrown when an authenticated caller lacks the right or the topic for a request; answered with 403. */
public class AccessDeniedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the reason, starting with {@code Authorization:} */
    public AccessDeniedException(String message) {
        super(message);
    }
}
