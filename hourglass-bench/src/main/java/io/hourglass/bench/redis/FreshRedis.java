package io.hourglass.bench.redis;

import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.time.Duration;

/**
 * A fresh {@code redis-server} for one system in one round of one scenario: no RDB snapshots ({@code save ""}), no
 * append-only file, default {@code hz}, in a session of its own so that the kernel schedules it as a program apart from
 * the benchmark JVM, as a deployed Redis is; plus an admin connection for {@code INFO}.
 */
public final class FreshRedis implements AutoCloseable {
    /** Null for a server another process started ({@link #attach}). */
    private final RedisServerProcess process;

    private final String uri;
    private final int port;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> admin;

    private FreshRedis(RedisServerProcess process, String uri, int port) {
        this.process = process;
        this.uri = uri;
        this.port = port;
        this.client = RedisClient.create(uri);
        this.admin = client.connect();
    }

    /**
     * The server another process started for this round (a benchmark step in a child JVM gets its parent's);
     * {@link #close()} leaves it running.
     *
     * @param port its TCP port on 127.0.0.1
     * @return a handle on it
     */
    public static FreshRedis attach(int port) {
        return new FreshRedis(null, "redis://127.0.0.1:" + port, port);
    }

    /**
     * @return a running, empty Redis
     * @throws IOException when it cannot be started
     */
    public static FreshRedis start() throws IOException {
        RedisServerProcess process = asBenchmarked(RedisServerProcess.builder()).start();
        try {
            return new FreshRedis(process, process.uri(), process.port());
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }

    /**
     * Sets what every Redis of the benchmarks has beyond {@code RedisServerProcess}'s defaults (which already take no
     * snapshots and keep no append-only file), the cluster workload's nodes included: a session of its own, and 30 s to
     * start on a loaded machine.
     *
     * @param builder a fresh builder
     * @return the builder with those options
     */
    public static RedisServerProcess.Builder asBenchmarked(RedisServerProcess.Builder builder) {
        return builder.ownSession(true).startupTimeout(Duration.ofSeconds(30));
    }

    /** @return {@code redis://127.0.0.1:port} */
    public String uri() {
        return uri;
    }

    /** @return the TCP port */
    public int port() {
        return port;
    }

    /** @return the server's version, e.g. 7.0.15 */
    public String version() {
        return process != null
                ? process.version()
                : InfoSection.parse(admin.sync().info("server")).value("redis_version");
    }

    /** @return {@code used_memory} from {@code INFO memory}, in bytes */
    public long usedMemory() {
        return InfoSection.parse(admin.sync().info("memory")).longValue("used_memory");
    }

    /** @return every command's call count so far ({@code INFO commandstats}) */
    public CommandStats commandStats() {
        return CommandStats.parse(admin.sync().info("commandstats"));
    }

    /**
     * @param count how many entries
     * @return the newest {@code SLOWLOG} entries, rendered as text
     */
    public String slowlog(int count) {
        return String.valueOf(admin.sync().slowlogGet(count));
    }

    @Override
    public void close() {
        try {
            admin.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        } finally {
            if (process != null) {
                process.close();
            }
        }
    }
}
