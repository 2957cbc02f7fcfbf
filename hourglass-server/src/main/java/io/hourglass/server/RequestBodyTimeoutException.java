package io.hourglass.server;

import java.io.IOException;

/**
 * Thrown while a request body is read, once it has taken longer than the deadline of {@link RequestBodyLimitFilter};
 * the API answers 408 and closes the connection.
 */
public class RequestBodyTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param timeoutMs how long the body may take to arrive, in ms */
    public RequestBodyTimeoutException(long timeoutMs) {
        super("body: the request body did not arrive within " + timeoutMs + " ms");
    }
}
