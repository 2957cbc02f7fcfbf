package io.hourglass.server;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis the server uses: a configured one, or an embedded {@code redis-server} that this process starts
 * (the development default). The embedded one persists every write to its append-only file before answering
 * ({@code appendfsync always}), so a {@code kill -9} of the server loses no accepted job; it dies with this JVM
 * even on {@code kill -9} (watchdog), and a restart on the same data dir first ends any Redis an earlier run left.
 */
public final class RedisTarget implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisTarget.class);

  private final String uri;
  private final RedisServerProcess embedded;

  private RedisTarget(String uri, RedisServerProcess embedded) {
    this.uri = uri;
    this.embedded = embedded;
  }

  /**
   * @param uri a Redis URI such as {@code redis://host:6379}
   * @return the configured Redis; closing it does nothing
   */
  public static RedisTarget external(String uri) {
    return new RedisTarget(uri.trim(), null);
  }

  /**
   * Starts a {@code redis-server} on a free port of 127.0.0.1 with append-only persistence in {@code dataDir}.
   *
   * @param dataDir the data folder, created if missing; reused across restarts
   * @return the running Redis; closing it stops Redis gracefully
   */
  public static RedisTarget embedded(Path dataDir) {
    log.warn("No Redis configured (--redis / HOURGLASS_REDIS): starting an embedded Redis with its data in {}. "
        + "This is the development default; use a managed Redis in production.", dataDir.toAbsolutePath());
    try {
      RedisServerProcess redis = RedisServerProcess.builder()
          .port(0)
          .dataDir(dataDir)
          .appendOnly(true)
          .appendFsync("always")
          .watchParent(true)
          // Spring closes it after Hourglass (bean destruction order); a JVM hook could stop it under Hourglass.
          .closeAtJvmExit(false)
          .start();
      return new RedisTarget(redis.uri(), redis);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded Redis in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /** @return the URI to connect to */
  public String uri() {
    return uri;
  }

  /** @return whether this is an embedded Redis started by this process */
  public boolean isEmbedded() {
    return embedded != null;
  }

  /** Stops the embedded Redis (after flushing its append-only file); does nothing for a configured one. */
  @Override
  public void close() {
    if (embedded != null) {
      embedded.close();
    }
  }
}
