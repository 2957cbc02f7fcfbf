package io.hourglass.server;

import io.hourglass.server.error.JsonErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses, before authentication and with the API's JSON error body, the requests the API has no use for and that
 * Tomcat would otherwise treat silently: {@code TRACE} (405; Tomcat's own refusal has an empty body, and the API must
 * never echo a request with its {@code Authorization} header), and a path with parameters ({@code ;name=value}, 400),
 * which Tomcat strips, so that {@code /v1/topics/bad;x=1/jobs} would land in topic {@code bad}.
 */
public final class RequestShapeFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getMethod().equals("TRACE")) {
            response.setHeader("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
            JsonErrorWriter.send(
                    response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "method: TRACE is not supported here");
            return;
        }
        if (request.getRequestURI().indexOf(';') >= 0) {
            JsonErrorWriter.send(
                    response,
                    HttpServletResponse.SC_BAD_REQUEST,
                    "path: path parameters (';' in the path) are not supported; encode a ';' in a name as %3B");
            return;
        }
        chain.doFilter(request, response);
    }
}
