package io.hourglass.embedded;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One Redis command over a fresh socket, in hand-written RESP: enough for tests without a Redis client. */
final class Resp {

    private Resp() {}

    /**
     * @return a simple string or error reply as its line ({@code +OK}, {@code -ERR ...}), an integer as {@code :n}, a
     *     bulk string as its content, a null bulk string as null, an array of bulk strings as its elements joined by
     *     newlines
     */
    static String call(RedisServerProcess redis, int timeoutMillis, String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(redis.host(), redis.port()), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            out.write(encode(args));
            out.flush();
            InputStream in = socket.getInputStream();
            String line = readLine(in);
            if (line.startsWith("*")) {
                List<String> elements = new ArrayList<>();
                for (int i = Integer.parseInt(line.substring(1)); i > 0; i--) {
                    elements.add(bulk(in, readLine(in)));
                }
                return String.join("\n", elements);
            }
            return line.startsWith("$") ? bulk(in, line) : line;
        }
    }

    private static String bulk(InputStream in, String header) throws IOException {
        int length = Integer.parseInt(header.substring(1));
        if (length < 0) {
            return null;
        }
        byte[] content = in.readNBytes(length + 2);
        return new String(content, 0, length, StandardCharsets.UTF_8);
    }

    static String call(RedisServerProcess redis, String... args) throws IOException {
        return call(redis, 2000, args);
    }

    private static byte[] encode(String... args) {
        StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            command.append('$')
                    .append(arg.getBytes(StandardCharsets.UTF_8).length)
                    .append("\r\n")
                    .append(arg)
                    .append("\r\n");
        }
        return command.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        throw new EOFException("connection closed before a complete reply");
    }
}
