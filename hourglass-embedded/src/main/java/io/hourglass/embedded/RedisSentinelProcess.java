package io.hourglass.embedded;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One local Redis Sentinel ({@code redis-server <config> --sentinel}) that monitors one master. Sentinel rewrites its
 * config file as it learns the topology, so each sentinel gets a writable {@code sentinel.conf} of its own in its
 * directory, next to {@code sentinel.log} and {@code sentinel.pid}.
 *
 * <pre>{@code
 * try (RedisSentinelProcess sentinel = RedisSentinelProcess.start(dir, "mymaster", "127.0.0.1", masterPort, 1,
 *     Duration.ofSeconds(1), Duration.ofSeconds(5))) {
 *   connect("redis-sentinel://127.0.0.1:" + sentinel.port() + "#mymaster");
 * }
 * }</pre>
 *
 * <p>Like {@link RedisServerProcess}, it runs under a watchdog that terminates it when this JVM dies, even by
 * {@code kill -9}. Unix only.
 */
public final class RedisSentinelProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSentinelProcess.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final String CONFIG_FILE = "sentinel.conf";
    private static final String LOG_FILE = "sentinel.log";
    private static final String PID_FILE = "sentinel.pid";

    private final Path dir;
    private final int port;
    private final Process launched;
    private final ProcessHandle sentinel;

    private RedisSentinelProcess(Path dir, int port, Process launched, ProcessHandle sentinel) {
        this.dir = dir;
        this.port = port;
        this.launched = launched;
        this.sentinel = sentinel;
    }

    /**
     * Writes a fresh config file into {@code dir}, starts a sentinel on a free port and waits until it answers PING.
     *
     * @param dir the sentinel's own directory (config, log, pid file); created if missing, its config overwritten
     * @param masterName the name clients use, e.g. {@code mymaster}
     * @param masterHost the monitored master's address
     * @param masterPort the monitored master's port
     * @param quorum sentinels that must agree the master is down, at least 1
     * @param downAfter how long the master must not answer before it is considered down
     * @param failoverTimeout Sentinel's {@code failover-timeout}
     * @return the running sentinel
     * @throws IOException if the directory or config cannot be written or the process cannot be launched
     * @throws IllegalStateException if the sentinel does not answer PING within 10 s
     */
    public static RedisSentinelProcess start(
            Path dir,
            String masterName,
            String masterHost,
            int masterPort,
            int quorum,
            Duration downAfter,
            Duration failoverTimeout)
            throws IOException {
        Path absolute = Files.createDirectories(dir).toAbsolutePath();
        Path binary = RedisBinaries.resolve().toAbsolutePath();
        int port = FreePorts.pick();
        Files.deleteIfExists(absolute.resolve(PID_FILE));
        Files.writeString(
                absolute.resolve(CONFIG_FILE),
                config(absolute, port, masterName, masterHost, masterPort, quorum, downAfter, failoverTimeout),
                StandardCharsets.UTF_8);
        EmbeddedBinary.verify(binary);
        List<String> command = Watchdog.wrap(
                List.of(binary.toString(), absolute.resolve(CONFIG_FILE).toString(), "--sentinel"),
                ProcessHandle.current().pid());
        Process process = new ProcessBuilder(command)
                .directory(absolute.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        absolute.resolve(LOG_FILE).toFile()))
                .start();
        try {
            ProcessHandle sentinel = awaitReady(process, absolute, port);
            LOG.info(
                    "Started redis sentinel on 127.0.0.1:{}, pid {}, monitoring {} at {}:{}",
                    port,
                    sentinel.pid(),
                    masterName,
                    masterHost,
                    masterPort);
            return new RedisSentinelProcess(absolute, port, process, sentinel);
        } catch (IOException | RuntimeException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw e;
        }
    }

    private static String config(
            Path dir,
            int port,
            String masterName,
            String masterHost,
            int masterPort,
            int quorum,
            Duration downAfter,
            Duration failoverTimeout) {
        return String.join(
                "\n",
                "port " + port,
                "bind 127.0.0.1",
                "daemonize no",
                "protected-mode no",
                "dir \"" + dir + "\"",
                "pidfile \"" + dir.resolve(PID_FILE) + "\"",
                "logfile \"" + dir.resolve(LOG_FILE) + "\"",
                "sentinel monitor " + masterName + " " + masterHost + " " + masterPort + " " + quorum,
                "sentinel down-after-milliseconds " + masterName + " " + downAfter.toMillis(),
                "sentinel failover-timeout " + masterName + " " + failoverTimeout.toMillis(),
                "sentinel parallel-syncs " + masterName + " 1",
                "");
    }

    private static ProcessHandle awaitReady(Process process, Path dir, int port) throws IOException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        String lastReply = "no connection";
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "redis sentinel exited with code " + process.exitValue() + "; see " + dir.resolve(LOG_FILE));
            }
            Optional<ProcessHandle> own = PidFile.read(dir.resolve(PID_FILE)).stream()
                    .mapToObj(pid ->
                            process.descendants().filter(p -> p.pid() == pid).findFirst())
                    .flatMap(Optional::stream)
                    .findFirst();
            if (own.isPresent()) {
                try {
                    lastReply = RedisPing.ping("127.0.0.1", port, 500);
                    if (lastReply.equals("+PONG")) {
                        return own.get();
                    }
                } catch (IOException e) {
                    lastReply = e.toString();
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for redis sentinel to start");
            }
        }
        throw new IllegalStateException("redis sentinel did not answer PING on port " + port + " within "
                + STARTUP_TIMEOUT.toMillis() + " ms (last reply: " + lastReply + "); see " + dir.resolve(LOG_FILE));
    }

    /** @return the sentinel's TCP port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return the pid of the sentinel process itself */
    public long pid() {
        return sentinel.pid();
    }

    /** @return the sentinel's directory (config, log, pid file) */
    public Path dir() {
        return dir;
    }

    /** @return whether the sentinel is alive */
    public boolean isRunning() {
        return sentinel.isAlive();
    }

    /** Stops the sentinel: SIGTERM, SIGKILL after 5 s. Idempotent. */
    @Override
    public void close() {
        if (sentinel.isAlive()) {
            Signals.terminate(sentinel, STOP_GRACE);
        }
        try {
            if (!launched.waitFor(STOP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                launched.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launched.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "redis sentinel 127.0.0.1:" + port + " (pid " + sentinel.pid() + ", dir " + dir + ")";
    }
}
