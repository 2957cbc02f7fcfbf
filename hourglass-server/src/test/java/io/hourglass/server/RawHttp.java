package io.hourglass.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 over a plain socket, for what a well-behaved client cannot do: announce a body it never sends, or send a
 * chunked body and stop half-way. Reads one response (with a {@code Content-Length} or chunked body).
 */
final class RawHttp implements AutoCloseable {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)\r\ncontent-length: *(\\d+)");

    private final Socket socket;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(15_000);
        out = socket.getOutputStream();
    }

    /** Sends text as is (CRLFs included). */
    RawHttp send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return this;
    }

    /** Sends one chunk of a chunked body. */
    RawHttp chunk(String data) throws IOException {
        return send(Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n");
    }

    /** @return the response as received: status line, headers, blank line and body (chunk sizes included) */
    String readResponse() throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int headEnd = -1;
        long bodyLength = -1;
        for (int b = in.read(); b >= 0; b = in.read()) {
            received.write(b);
            String text = received.toString(StandardCharsets.UTF_8);
            if (headEnd < 0 && text.endsWith("\r\n\r\n")) {
                headEnd = text.length();
                Matcher m = CONTENT_LENGTH.matcher(text);
                bodyLength = m.find() ? Long.parseLong(m.group(1)) : -1;
            }
            boolean complete =
                    bodyLength >= 0 ? received.size() >= headEnd + bodyLength : text.endsWith("\r\n0\r\n\r\n");
            if (headEnd >= 0 && complete) {
                break;
            }
        }
        return received.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
