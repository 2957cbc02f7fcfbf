package io.hourglass.chaos;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * An append-only file of history lines, one per operation, written by exactly one process. Each line goes to the
 * operating system with one {@code write} call before {@link #append} returns, so it survives a {@code kill -9} of the
 * process that wrote it (the page cache outlives the process); a line cut short can only be the last one.
 */
final class RecordLog implements AutoCloseable {
    private final FileOutputStream out;

    RecordLog(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    /** Writes the fields separated by spaces, and a newline, in one system call. */
    synchronized void append(Object... fields) {
        StringBuilder line = new StringBuilder(96);
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                line.append(' ');
            }
            line.append(fields[i]);
        }
        line.append('\n');
        try {
            out.write(line.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a history line", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
