package io.hourglass.server.error;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * Writes the API's error body {@code {"error": "<field>: <message>"}} from a servlet filter, where the controllers'
 * {@link io.hourglass.server.api.ApiExceptionHandler} cannot help, and sends it at once with {@code Connection: close}:
 * a filter answers before the request body is read, and Tomcat would otherwise keep a request thread to read and
 * discard that body, which a slow client can make last (many such clients froze the API).
 */
public final class JsonErrorWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonErrorWriter() {}

    /**
     * @param response the response, not yet committed; extra headers may already be set
     * @param status the HTTP status
     * @param message the message, starting with the field at fault
     * @throws IOException when the client is gone
     */
    public static void send(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = JSON.writeValueAsBytes(Map.of("error", message));
        response.setStatus(status);
        response.setHeader("Connection", "close");
        response.setContentType("application/json");
        // A length, not chunks: the client has the whole answer even while the server still discards its body.
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
