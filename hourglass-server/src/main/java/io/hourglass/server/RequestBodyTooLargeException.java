package io.hourglass.server;

import java.io.IOException;

/**
 * Thrown while a request body is read, as soon as it exceeds the limit of {@link RequestBodyLimitFilter}; the API
 * answers 413.
 */
public class RequestBodyTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param limit the largest body accepted, in bytes */
    public RequestBodyTooLargeException(long limit) {
        super(RequestBodyLimitFilter.message(limit));
    }
}
