package io.hourglass.server.embedded;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis-server} this process starts when no Redis is configured (the development default). It persists
 * every write to its append-only file before answering ({@code appendfsync always}), so a {@code kill -9} of the
 * server loses no accepted job; it dies with this JVM even on {@code kill -9} (watchdog), and a start on the same
 * data dir first ends any Redis an earlier run left.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);

    private final RedisServerProcess process;
    private final Path dataDir;

    private EmbeddedRedis(RedisServerProcess process, Path dataDir) {
        this.process = process;
        this.dataDir = dataDir;
    }

    /**
     * Starts a {@code redis-server} on a free port of 127.0.0.1 with append-only persistence in {@code dataDir}.
     *
     * @param dataDir the data folder, created if missing; reused across restarts
     * @return the running Redis; closing it stops Redis gracefully
     * @throws UncheckedIOException when Redis cannot be started
     */
    public static EmbeddedRedis start(Path dataDir) {
        log.warn(
                "No Redis configured (--redis / HOURGLASS_REDIS): starting an embedded Redis with its data in {}. "
                        + "This is the development default; use a managed Redis in production.",
                dataDir.toAbsolutePath());
        try {
            RedisServerProcess redis = RedisServerProcess.builder()
                    .port(0)
                    .dataDir(dataDir)
                    .appendOnly(true)
                    .appendFsync("always")
                    .watchParent(true)
                    // Spring closes it after the Hourglass bean (which depends on it); a JVM hook could stop it under
                    // Hourglass.
                    .closeAtJvmExit(false)
                    .start();
            return new EmbeddedRedis(redis, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded Redis in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** @return the URI to connect to */
    public String uri() {
        return process.uri();
    }

    /** @return the data folder */
    public Path dataDir() {
        return dataDir;
    }

    /** Stops Redis gracefully, after flushing its append-only file. */
    @Override
    public void close() {
        process.close();
    }
}
