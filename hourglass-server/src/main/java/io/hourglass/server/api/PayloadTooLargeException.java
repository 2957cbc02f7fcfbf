package io.hourglass.server.api;

/** Thrown when a job's payload is larger than the server accepts; answered with 413. */
public class PayloadTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PayloadTooLargeException(String message) {
        super(message);
    }
}
