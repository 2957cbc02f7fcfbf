package io.hourglass.embedded;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A PING over a plain socket, in hand-written RESP, so that this module needs no Redis client. */
final class RedisPing {

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

    private RedisPing() {}

    /**
     * @return the first line of the reply without its CRLF: {@code +PONG} when ready, {@code -LOADING ...} while Redis
     *     replays its append-only file
     * @throws IOException if the connection is refused, times out or closes before a reply
     */
    static String ping(String host, int port, int timeoutMillis) throws IOException {
        return ping(host, port, timeoutMillis, null);
    }

    /**
     * As {@link #ping(String, int, int)}, after {@code AUTH password} when a password is given (AUTH is answered even
     * while Redis loads, so that {@code -LOADING} still shows through); a refused AUTH is returned as its error line.
     */
    static String ping(String host, int port, int timeoutMillis, String password) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            if (password != null) {
                byte[] secret = password.getBytes(StandardCharsets.UTF_8);
                out.write(("*2\r\n$4\r\nAUTH\r\n$" + secret.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(secret);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write(PING);
            out.flush();
            InputStream in = socket.getInputStream();
            if (password != null) {
                String auth = readLine(in);
                if (!auth.equals("+OK")) {
                    return auth;
                }
            }
            return readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new EOFException("connection closed before a complete reply");
    }
}
