package io.hourglass.embedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The end of redis.log, to put into exception messages when Redis fails to start. */
final class LogTail {

    private static final int MAX_LINES = 20;
    private static final int MAX_BYTES = 16 * 1024;

    private LogTail() {}

    /** Size of the log now, so that a later {@link #since} shows only what one launch wrote. */
    static long size(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** The last lines written since {@code offset}; never throws, as it only decorates another failure. */
    static String since(Path log, long offset) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(offset, file.length() - MAX_BYTES);
            byte[] bytes = new byte[(int) Math.max(0, file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            List<String> lines = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - MAX_LINES), lines.size()))
                    .strip();
            return tail.isEmpty() ? "(" + log + " is empty)" : tail;
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** Whether the lines since {@code offset} say the port was taken. */
    static boolean saysAddressInUse(Path log, long offset) {
        return since(log, offset).contains("Address already in use");
    }
}
