package io.hourglass.server.error;

import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Makes {@code Connection: close} on an answer mean what it says to Tomcat: the rest of an unread request body is not
 * read and discarded first. Without it, Tomcat closes the connection only after reading what remains of the declared
 * body (up to {@code server.tomcat.max-swallow-size}, each read bounded by the connection timeout), so hundreds of
 * clients that announce a body and trickle it, answered 401 at once, each held a request thread and froze the API.
 * Every early error answer sets the header ({@link JsonErrorWriter}, and the controllers' exception handler when the
 * body was not read).
 */
public class UnreadBodyValve extends ValveBase {

    /** A valve that supports asynchronous requests (the long polls). */
    public UnreadBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        String connection = response.getHeader("Connection");
        if (!request.isAsync() && connection != null && connection.equalsIgnoreCase("close")) {
            // The answer is complete first (a chunked one gets its last chunk): Tomcat treats the connection as
            // failed from here on and would cut an unfinished answer short.
            response.finishResponse();
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
        }
    }
}
