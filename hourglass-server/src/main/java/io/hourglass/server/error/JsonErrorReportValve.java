package io.hourglass.server.error;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * Tomcat's error report for the requests Tomcat refuses itself, before any servlet sees them (an encoded {@code /} or
 * NUL in the path, a malformed request line): the API's {@code {"error": "request: ..."}} instead of an HTML page.
 * Errors answered by the application are not touched.
 */
public class JsonErrorReportValve extends ErrorReportValve {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        String message = response.getMessage();
        String reason = message == null || message.isBlank() ? "refused by the server (HTTP " + status + ")" : message;
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(Map.of("error", "request: " + reason)));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone, or the response was committed meanwhile: nothing more to say
        }
    }
}
