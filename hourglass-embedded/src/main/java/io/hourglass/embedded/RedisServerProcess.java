package io.hourglass.embedded;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One local {@code redis-server} process: started, stopped, killed, paused and restarted on demand, on a fixed or free
 * port, with its data (append-only file, {@code redis.pid}, {@code redis.log}) in one directory.
 *
 * <p>Typical use:
 *
 * <pre>{@code
 * try (RedisServerProcess redis = RedisServerProcess.builder().build().start()) {
 *   connect(redis.uri());
 * }
 * }</pre>
 *
 * <p>Guarantees against leftover processes: a shutdown hook stops (and {@linkplain #close() closes}) every process
 * still open when the JVM exits normally; with {@link Builder#watchParent(boolean) watchParent} (the default) a
 * watchdog shell terminates Redis within about a second when the JVM dies even by {@code kill -9}; and {@link #start()}
 * terminates a redis-server left running on the same data dir by an earlier run.
 *
 * <p>Replicas and cluster nodes are ordinary servers with extra directives (e.g. {@code arg("replicaof", host, port)},
 * {@code arg("cluster-enabled", "yes")}), so groups of them can be built from this class; Sentinel, which needs a
 * config file of its own, would be a sibling class.
 *
 * <p>Thread-safe: every method is synchronized, so e.g. {@link #stop()} waits for a {@link #start()} running in another
 * thread. Unix only (Linux, macOS): it uses {@code /bin/sh} and {@code kill(1)}.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServerProcess.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration WATCHDOG_EXIT = Duration.ofSeconds(3);
    private static final int PORT_ATTEMPTS = 3;
    private static final int PING_TIMEOUT_MILLIS = 500;
    /** util-linux's {@code setsid}, for {@link Builder#ownSession}; null where there is none (e.g. macOS). */
    static final Path SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);

    private final ServerOptions options;
    private final Path binary;
    private final String version;
    private final Path dataDir;
    private final boolean temporaryDataDir;

    private int port;
    /** The process this JVM started: the watchdog shell, or Redis itself without one. */
    private Process launched;

    private ProcessHandle redis;
    private boolean paused;
    private boolean closed;

    private RedisServerProcess(
            ServerOptions options, Path binary, String version, Path dataDir, boolean temporaryDataDir) {
        this.options = options;
        this.binary = binary;
        this.version = version;
        this.dataDir = dataDir;
        this.temporaryDataDir = temporaryDataDir;
        this.port = options.port();
    }

    /**
     * A builder with the defaults: {@link RedisBinaries#resolve()}, a free port, bound to 127.0.0.1, a temporary data
     * dir, no persistence, watched parent, 10 s startup timeout.
     *
     * @return a new builder, never null
     */
    public static Builder builder() {
        return new Builder(ServerOptions.DEFAULTS);
    }

    /**
     * Starts Redis and waits until it answers {@code PING} with {@code PONG} (also waiting while it answers
     * {@code LOADING}, i.e. replays its append-only file). If a redis-server from an earlier run still runs on the data
     * dir, it is terminated first (SIGTERM, SIGKILL after 10 s) and a warning is logged. With port 0 a free port is
     * picked, and another one if the port is taken before Redis binds it (up to 3 tries); later starts reuse it.
     *
     * @return this process, running
     * @throws IllegalStateException if it is already running or closed, or Redis fails to start or to answer within the
     *     startup timeout; the message ends with the tail of {@code redis.log}
     * @throws IOException if the data dir cannot be created, or the process cannot be launched; an
     *     {@link InterruptedIOException} if the thread is interrupted while waiting (the interrupt flag is kept)
     */
    public synchronized RedisServerProcess start() throws IOException {
        if (closed) {
            throw new IllegalStateException("closed: " + this);
        }
        if (isRunning()) {
            throw new IllegalStateException("already running: " + this);
        }
        awaitLaunchedExit(); // Redis may have died without us, e.g. terminated by a start on the same data dir
        Files.createDirectories(dataDir);
        StaleServer.terminateIfAlive(dataDir, binary);
        writeAuthFile();
        Files.deleteIfExists(PidFile.in(dataDir));
        launchOnFreeOrFixedPort();
        paused = false;
        if (options.closeAtJvmExit()) {
            LiveProcesses.add(this);
        }
        LOG.info("Started redis-server {} on {}:{}, pid {}, data dir {}", version, host(), port, redis.pid(), dataDir);
        return this;
    }

    /**
     * Stops Redis if it is running (gracefully, as after {@link #stop()}), then {@linkplain #start() starts} it again
     * on the same port and data dir. Use it after {@link #kill()} to simulate recovery from a crash.
     *
     * @return this process, running
     * @throws IllegalStateException as {@link #start()}, e.g. if another process took the port meanwhile
     * @throws IOException as {@link #start()}
     */
    public synchronized RedisServerProcess restart() throws IOException {
        stop();
        return start();
    }

    /**
     * Stops Redis gracefully: SIGTERM (Redis flushes its append-only file and exits), SIGKILL if it is still running
     * after 10 s. Works on a paused process too. Does nothing if it is not running.
     */
    public synchronized void stop() {
        if (isRunning()) {
            redis.destroy();
            if (paused) {
                // A stopped process handles the pending SIGTERM only once it is continued.
                signalQuietly("CONT");
            }
            if (!Signals.awaitExit(redis, STOP_GRACE)) {
                LOG.warn(
                        "redis-server pid {} did not exit within {} s of SIGTERM; sending SIGKILL",
                        redis.pid(),
                        STOP_GRACE.toSeconds());
                Signals.kill(redis);
            }
            LOG.info("Stopped redis-server on port {}, pid {}", port, redis.pid());
        }
        awaitLaunchedExit();
    }

    /**
     * Kills Redis with SIGKILL, as in a crash: nothing is flushed beyond what {@code appendfsync} already wrote.
     * Returns once the process is gone. Does nothing if it is not running.
     */
    public synchronized void kill() {
        if (isRunning()) {
            Signals.kill(redis);
            LOG.info("Killed redis-server on port {}, pid {}", port, redis.pid());
        }
        awaitLaunchedExit();
    }

    /**
     * Freezes Redis with SIGSTOP: it keeps its port and connections (the kernel still accepts new ones) but answers
     * nothing until {@link #resume()}, like a hung or partitioned server.
     *
     * @throws IllegalStateException if it is not running
     * @throws UncheckedIOException if the signal cannot be sent
     */
    public synchronized void pause() {
        requireRunning();
        signal("STOP");
        paused = true;
    }

    /**
     * Continues Redis after {@link #pause()} with SIGCONT. Harmless if it is not paused.
     *
     * @throws IllegalStateException if it is not running
     * @throws UncheckedIOException if the signal cannot be sent
     */
    public synchronized void resume() {
        requireRunning();
        signal("CONT");
        paused = false;
    }

    /**
     * Stops Redis as {@link #stop()} and, if the data dir was a temporary one, deletes it. Idempotent; a closed process
     * cannot be started again.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
        } finally {
            closed = true;
            LiveProcesses.remove(this);
            if (temporaryDataDir) {
                deleteDataDir();
            }
        }
    }

    /** @return whether Redis is alive (a paused Redis counts as running) */
    public synchronized boolean isRunning() {
        return redis != null && redis.isAlive();
    }

    /**
     * The address clients connect to: the first bind address, or the loopback address when that is a wildcard.
     *
     * @return a host name or IP address, never null
     */
    public String host() {
        String first = options.bindAddresses().get(0);
        String address = first.startsWith("-") ? first.substring(1) : first;
        return switch (address) {
            case "*", "0.0.0.0" -> "127.0.0.1";
            case "::", "::*" -> "::1";
            default -> address;
        };
    }

    /**
     * @return the TCP port; with port 0 in the builder, the one chosen at the first {@link #start()}
     * @throws IllegalStateException if the port is still to be chosen (never started)
     */
    public synchronized int port() {
        if (port == 0) {
            throw new IllegalStateException("the port is chosen at the first start(), which has not happened yet");
        }
        return port;
    }

    /** @return the password of the default user that {@link Builder#password(String)} set, or empty */
    public Optional<String> password() {
        return Optional.ofNullable(options.password());
    }

    /**
     * @return {@code redis://host:port}, with IPv6 hosts in brackets; never with the password (see {@link #password()})
     * @throws IllegalStateException if the port is still to be chosen (never started)
     */
    public synchronized String uri() {
        String host = host();
        return "redis://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
    }

    /**
     * @return the pid of the redis-server process itself (not of its watchdog shell); after it stopped, the pid it had
     * @throws IllegalStateException if it was never started
     */
    public synchronized long pid() {
        if (redis == null) {
            throw new IllegalStateException("never started: " + this);
        }
        return redis.pid();
    }

    /**
     * @return the data directory (append-only file, {@code redis.pid}, {@code redis.log}), never null; it exists from
     *     {@link Builder#build()} on, and a temporary one is deleted by {@link #close()}
     */
    public Path dataDir() {
        return dataDir;
    }

    /** @return the redis-server executable, never null */
    public Path binary() {
        return binary;
    }

    /** @return the version the executable reports, e.g. {@code "7.0.15"}, never null */
    public String version() {
        return version;
    }

    @Override
    public synchronized String toString() {
        String address = port == 0 ? host() + ":(free port)" : uri();
        String state = isRunning() ? "pid " + redis.pid() + (paused ? ", paused" : "") : "not running";
        return "redis-server " + version + " " + address + " (" + state + ", data dir " + dataDir + ")";
    }

    private void launchOnFreeOrFixedPort() throws IOException {
        boolean pickPort = port == 0;
        for (int attempt = 1; ; attempt++) {
            int candidate = pickPort ? FreePorts.pick(options.highestPort()) : port;
            try {
                launch(candidate);
                port = candidate;
                return;
            } catch (PortTakenException e) {
                if (!pickPort || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                LOG.debug("Port {} was taken before redis-server could bind it; trying another one", candidate);
            }
        }
    }

    private void launch(int candidatePort) throws IOException {
        Path log = dataDir.resolve(ServerOptions.LOG_FILE);
        long logOffset = LogTail.size(log);
        EmbeddedBinary.verify(binary);
        List<String> command = options.command(binary, candidatePort, dataDir);
        if (options.ownSession() && SETSID != null) {
            // Started from a shell's background job or from this JVM, Redis leads no process group, so setsid execs it
            // in place without a fork: the pid stays Redis's own.
            command.add(0, SETSID.toString());
        }
        if (options.watchParent()) {
            command = Watchdog.wrap(command, ProcessHandle.current().pid());
        }
        // Output goes to redis.log as well, so that errors printed before Redis opens its log file end up there too.
        Process process = new ProcessBuilder(command)
                .directory(dataDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            redis = awaitReady(process, candidatePort, log, logOffset);
            launched = process;
        } catch (IOException | RuntimeException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw e;
        }
    }

    /**
     * Waits until Redis has written our pid file (so it bound the port, not some other process) and answers PONG (or
     * NOAUTH, when its default user is off).
     */
    private ProcessHandle awaitReady(Process process, int candidatePort, Path log, long logOffset) throws IOException {
        long deadline = System.nanoTime() + options.startupTimeout().toNanos();
        String lastReply = "no connection";
        while (true) {
            if (!process.isAlive()) {
                String message = "redis-server exited with code " + process.exitValue() + " while starting on port "
                        + candidatePort + "; " + log + " ends with:\n" + LogTail.since(log, logOffset);
                throw LogTail.saysAddressInUse(log, logOffset)
                        ? new PortTakenException(message)
                        : new IllegalStateException(message);
            }
            Optional<ProcessHandle> own = ownRedis(process);
            if (own.isPresent()) {
                try {
                    lastReply = RedisPing.ping(host(), candidatePort, PING_TIMEOUT_MILLIS, options.password());
                    // NOAUTH: serving, with its default user switched off (an ACL setup); LOADING means not yet.
                    if (lastReply.equals("+PONG") || lastReply.startsWith("-NOAUTH")) {
                        return own.get();
                    }
                } catch (IOException e) {
                    lastReply = e.toString();
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("redis-server did not answer PING on port " + candidatePort + " within "
                        + options.startupTimeout().toMillis() + " ms (last reply: " + lastReply + "); " + log
                        + " ends with:\n"
                        + LogTail.since(log, logOffset));
            }
            sleep(Duration.ofMillis(20));
        }
    }

    /** Writes {@code requirepass} to an owner-only file that the command line includes, or removes an old one. */
    private void writeAuthFile() throws IOException {
        Path file = dataDir.resolve(ServerOptions.AUTH_FILE);
        Files.deleteIfExists(file);
        if (options.password() == null) {
            return;
        }
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, "requirepass " + options.password() + "\n", StandardCharsets.UTF_8);
    }

    private Optional<ProcessHandle> ownRedis(Process process) {
        OptionalLong pid = PidFile.read(PidFile.in(dataDir));
        if (pid.isEmpty()) {
            return Optional.empty();
        }
        if (pid.getAsLong() == process.pid()) {
            return Optional.of(process.toHandle());
        }
        return process.descendants().filter(p -> p.pid() == pid.getAsLong()).findFirst();
    }

    private static void sleep(Duration duration) throws InterruptedIOException {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for redis-server to start");
        }
    }

    /** The watchdog shell exits right after Redis; without a watchdog this reaps Redis itself. */
    private void awaitLaunchedExit() {
        paused = false;
        if (launched == null) {
            return;
        }
        try {
            if (!launched.waitFor(WATCHDOG_EXIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("watchdog of redis-server on port {} did not exit; killing it", port);
                launched.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launched.destroyForcibly();
        }
        launched = null;
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException("not running: " + this);
        }
    }

    private void signal(String signal) {
        try {
            Signals.send(redis.pid(), signal);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot send SIG" + signal + " to " + this + ": " + e.getMessage(), e);
        }
    }

    private void signalQuietly(String signal) {
        try {
            Signals.send(redis.pid(), signal);
        } catch (IOException e) {
            LOG.debug("cannot send SIG{} to redis-server pid {}", signal, redis.pid(), e);
        }
    }

    private void deleteDataDir() {
        try {
            Directories.deleteRecursively(dataDir);
        } catch (IOException e) {
            LOG.warn("cannot delete temporary redis data dir {}: {}", dataDir, e.toString());
        }
    }

    /** Redis could not bind the port: another process took it after we found it free. */
    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(String message) {
            super(message);
        }
    }

    /**
     * Options for a {@link RedisServerProcess}. Immutable: every method returns a new builder and leaves this one
     * unchanged, so a builder can serve as a template for several processes. Thread-safe.
     */
    public static final class Builder {

        private static final Set<String> APPEND_FSYNC = Set.of("always", "everysec", "no");
        /** Directives this class relies on; setting them through {@link #arg} would break start, stop or diagnosis. */
        private static final Set<String> RESERVED = Set.of(
                "port",
                "bind",
                "dir",
                "pidfile",
                "logfile",
                "daemonize",
                "appendonly",
                "appendfsync",
                "requirepass",
                "include");

        private final ServerOptions options;

        private Builder(ServerOptions options) {
            this.options = options;
        }

        /**
         * @param binary the redis-server executable; null for {@link RedisBinaries#resolve()} (the default)
         * @return a new builder
         */
        public Builder binary(Path binary) {
            return new Builder(options.with(d -> d.binary = binary));
        }

        /**
         * @param port the TCP port, 1 to 65535; 0 (the default) to pick a free one at the first start
         * @return a new builder
         * @throws IllegalArgumentException if the port is out of range
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535: " + port);
            }
            return new Builder(options.with(d -> d.port = port));
        }

        /**
         * @param addresses the addresses to listen on, separated by spaces (Redis's {@code bind} syntax); default
         *     {@code 127.0.0.1}
         * @return a new builder
         * @throws IllegalArgumentException if blank
         */
        public Builder bind(String addresses) {
            if (addresses == null || addresses.isBlank()) {
                throw new IllegalArgumentException("bind needs at least one address");
            }
            return new Builder(options.with(
                    d -> d.bindAddresses = Arrays.asList(addresses.trim().split("\\s+"))));
        }

        /**
         * @param dataDir the data directory, created if missing and kept on close; null (the default) for a fresh
         *     temporary directory that {@link RedisServerProcess#close()} deletes
         * @return a new builder
         */
        public Builder dataDir(Path dataDir) {
            return new Builder(options.with(d -> d.dataDir = dataDir));
        }

        /**
         * @param appendOnly whether Redis persists every write to its append-only file (default false)
         * @return a new builder
         */
        public Builder appendOnly(boolean appendOnly) {
            return new Builder(options.with(d -> d.appendOnly = appendOnly));
        }

        /**
         * @param appendFsync when the append-only file is fsynced: {@code always} (before each reply), {@code everysec}
         *     (the default) or {@code no} (left to the OS)
         * @return a new builder
         * @throws IllegalArgumentException for any other value
         */
        public Builder appendFsync(String appendFsync) {
            String value = appendFsync == null ? "" : appendFsync.toLowerCase(Locale.ROOT);
            if (!APPEND_FSYNC.contains(value)) {
                throw new IllegalArgumentException("appendFsync must be always, everysec or no: " + appendFsync);
            }
            return new Builder(options.with(d -> d.appendFsync = value));
        }

        /**
         * Adds a config directive, passed on the command line after the ones this class sets, so it may override
         * {@code save} and {@code protected-mode}. Each value is a separate token: {@code arg("hz", "10")},
         * {@code arg("save", "900", "1")}, {@code arg("replicaof", "127.0.0.1", "6379")}.
         *
         * @param name the directive, without {@code --}; not one of those the builder sets itself (port, bind, dir,
         *     pidfile, logfile, daemonize, appendonly, appendfsync)
         * @param values its values, none of them null; an empty string is passed as an empty value
         * @return a new builder
         * @throws IllegalArgumentException if the name is blank or reserved, or a value is null
         */
        public Builder arg(String name, String... values) {
            String directive =
                    name == null ? "" : name.strip().replaceFirst("^--", "").toLowerCase(Locale.ROOT);
            if (directive.isEmpty()) {
                throw new IllegalArgumentException("a directive needs a name");
            }
            if (RESERVED.contains(directive)) {
                throw new IllegalArgumentException("set " + directive + " through its builder method, not arg()");
            }
            List<String> tokens = new ArrayList<>();
            tokens.add(directive);
            for (String value : values) {
                if (value == null) {
                    throw new IllegalArgumentException("null value for directive " + directive);
                }
                tokens.add(value);
            }
            List<List<String>> directives = new ArrayList<>(options.directives());
            directives.add(tokens);
            return new Builder(options.with(d -> d.directives = directives));
        }

        /**
         * Makes Redis ask for this password ({@code requirepass}, the default user's). It reaches Redis through a file
         * in the data dir that only the owner can read ({@code redis-auth.conf}, {@code rw-------}), not the command
         * line, which every local user can see. Never logged; {@link RedisServerProcess#uri()} leaves it out.
         *
         * @param password 16 to 256 characters, letters, digits and {@code -_.~+/=} only; null (the default) for no
         *     password
         * @return a new builder
         * @throws IllegalArgumentException if the password is too short, too long or has other characters (it is not
         *     echoed)
         */
        public Builder password(String password) {
            if (password != null && !password.matches("[A-Za-z0-9._~+/=-]{16,256}")) {
                throw new IllegalArgumentException(
                        "password: must be 16 to 256 characters, letters, digits and -_.~+/= only");
            }
            return new Builder(options.with(d -> d.password = password));
        }

        /**
         * @param watchParent whether a watchdog shell terminates Redis (SIGTERM) within about a second after this JVM
         *     dies, even by {@code kill -9} (default true). Turn it off for a Redis meant to outlive the JVM.
         * @return a new builder
         */
        public Builder watchParent(boolean watchParent) {
            return new Builder(options.with(d -> d.watchParent = watchParent));
        }

        /**
         * @param closeAtJvmExit whether a shared JVM shutdown hook stops this process when the JVM exits (default
         *     true). Turn it off when the owner stops it itself in an order of its own, e.g. a server that must close
         *     its Redis clients first: shutdown hooks run concurrently, so the shared hook could stop Redis under them.
         * @return a new builder
         */
        public Builder closeAtJvmExit(boolean closeAtJvmExit) {
            return new Builder(options.with(d -> d.closeAtJvmExit = closeAtJvmExit));
        }

        /**
         * @param ownSession whether Redis runs in a session of its own (Linux {@code setsid}; default false). A child
         *     process shares this JVM's session and, under the kernel's autogroup scheduling
         *     ({@code /proc/sys/kernel/sched_autogroup_enabled}), its share of the CPU: Redis then competes with each
         *     of the JVM's threads. In a session of its own it competes with the JVM as a whole, as a Redis deployed
         *     apart does. The benchmarks turn it on; ignored where no {@code setsid} command is found.
         * @return a new builder
         */
        public Builder ownSession(boolean ownSession) {
            return new Builder(options.with(d -> d.ownSession = ownSession));
        }

        /**
         * @param startupTimeout how long {@link RedisServerProcess#start()} waits for {@code PONG}, including the
         *     replay of the append-only file; positive; default 10 s
         * @return a new builder
         * @throws IllegalArgumentException if null, zero or negative
         */
        public Builder startupTimeout(Duration startupTimeout) {
            if (startupTimeout == null || startupTimeout.isNegative() || startupTimeout.isZero()) {
                throw new IllegalArgumentException("startupTimeout must be positive: " + startupTimeout);
            }
            return new Builder(options.with(d -> d.startupTimeout = startupTimeout));
        }

        /**
         * Creates the process, not yet started: resolves the binary, asks its version and creates the data dir.
         *
         * @return a new, stopped process
         * @throws IllegalStateException if no usable redis-server binary is found (see {@link RedisBinaries})
         * @throws UncheckedIOException if the data dir cannot be created
         */
        public RedisServerProcess build() {
            // Absolute, because the process is launched in the data dir.
            Path binary = (options.binary() != null ? options.binary() : RedisBinaries.resolve()).toAbsolutePath();
            String version = RedisBinaries.version(binary);
            try {
                boolean temporary = options.dataDir() == null;
                Path dataDir = temporary
                        ? Files.createTempDirectory("hourglass-redis-")
                        : Files.createDirectories(options.dataDir()).toAbsolutePath();
                return new RedisServerProcess(options, binary, version, dataDir, temporary);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the redis data dir: " + e.getMessage(), e);
            }
        }

        /**
         * Shorthand for {@code build().start()}.
         *
         * @return a new, running process
         * @throws IllegalStateException as {@link #build()} and {@link RedisServerProcess#start()}
         * @throws IOException as {@link RedisServerProcess#start()}
         */
        public RedisServerProcess start() throws IOException {
            return build().start();
        }
    }
}
