package io.hourglass.server;

import io.hourglass.server.error.JsonErrorWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps the size of request bodies, so that a huge body is refused without being read into memory: a declared
 * {@code Content-Length} above the limit is answered 413 at once, unread; a body without one (chunked) is cut off as
 * soon as reading passes the limit, and answered 413 too ({@link RequestBodyTooLargeException}). It also caps the time
 * a body takes to arrive, so that a client trickling its body cannot hold a request thread for long: a read that ends
 * past the deadline fails ({@link RequestBodyTimeoutException}, answered 408); a read that blocks is bounded by
 * Tomcat's {@code server.tomcat.connection-timeout}.
 */
public final class RequestBodyLimitFilter extends OncePerRequestFilter {
    private final long maxBodyBytes;
    private final long bodyReadTimeoutMs;

    /**
     * @param maxBodyBytes the largest body accepted, in bytes
     * @param bodyReadTimeoutMs how long the whole body may take to arrive, in ms from the start of the request;
     *     positive
     * @throws IllegalArgumentException when {@code bodyReadTimeoutMs} is not positive
     */
    public RequestBodyLimitFilter(long maxBodyBytes, long bodyReadTimeoutMs) {
        if (bodyReadTimeoutMs <= 0) {
            throw new IllegalArgumentException("body-read-timeout-ms: must be positive, got " + bodyReadTimeoutMs);
        }
        this.maxBodyBytes = maxBodyBytes;
        this.bodyReadTimeoutMs = bodyReadTimeoutMs;
    }

    static String message(long limit) {
        return "payload: the request body is larger than the limit of " + limit + " bytes (the largest payload plus"
                + " room for the other fields)";
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBodyBytes) {
            // Do not keep the connection to read (and discard) what remains of a body this large.
            response.setHeader("Connection", "close");
            JsonErrorWriter.send(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, message(maxBodyBytes));
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bodyReadTimeoutMs);
        chain.doFilter(new LimitedRequest(request, maxBodyBytes, deadline, bodyReadTimeoutMs), response);
    }

    /** A request whose body reads fail once more than the limit has been read. */
    private static final class LimitedRequest extends HttpServletRequestWrapper {
        private final long limit;
        private final long deadline;
        private final long timeoutMs;
        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long limit, long deadline, long timeoutMs) {
            super(request);
            this.limit = limit;
            this.deadline = deadline;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new LimitedInputStream(super.getInputStream(), limit, deadline, timeoutMs);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset;
            try {
                charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            } catch (IllegalArgumentException e) {
                throw new UnsupportedEncodingException(encoding);
            }
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    /** Counts the bytes read and fails past the limit, or past the deadline. */
    private static final class LimitedInputStream extends ServletInputStream {
        private final ServletInputStream in;
        private final long limit;
        private final long deadline;
        private final long timeoutMs;
        private long count;

        LimitedInputStream(ServletInputStream in, long limit, long deadline, long timeoutMs) {
            this.in = in;
            this.limit = limit;
            this.deadline = deadline;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public int read() throws IOException {
            checkDeadline();
            int b = in.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            checkDeadline();
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) throws IOException {
            count += n;
            if (count > limit) {
                throw new RequestBodyTooLargeException(limit);
            }
            checkDeadline();
        }

        private void checkDeadline() throws RequestBodyTimeoutException {
            if (System.nanoTime() - deadline > 0 && !in.isFinished()) {
                throw new RequestBodyTimeoutException(timeoutMs);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
