package io.hourglass.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The pid file Redis writes once it has bound its port ({@code --pidfile}). */
final class PidFile {

    static final String NAME = "redis.pid";

    private PidFile() {}

    static Path in(Path dataDir) {
        return dataDir.resolve(NAME);
    }

    /** The pid in the file; empty if the file is missing, or not (yet) completely written. */
    static OptionalLong read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
