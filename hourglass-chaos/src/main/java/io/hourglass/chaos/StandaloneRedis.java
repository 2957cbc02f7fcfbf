package io.hourglass.chaos;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** One redis-server with an append-only file, as the standalone scenarios use it. */
final class StandaloneRedis implements RedisTopology {
    private final RedisServerProcess redis;

    private StandaloneRedis(RedisServerProcess redis) {
        this.redis = redis;
    }

    static StandaloneRedis start(Path dataDir, String appendFsync) throws IOException {
        return new StandaloneRedis(RedisServerProcess.builder()
                .dataDir(dataDir)
                .appendOnly(true)
                .appendFsync(appendFsync)
                .startupTimeout(Duration.ofMinutes(2))
                .start());
    }

    @Override
    public String clientUri() {
        return redis.uri();
    }

    @Override
    public Fault killAndRestart(long downtimeMs) throws Exception {
        long pid = redis.pid();
        long start = System.currentTimeMillis();
        redis.kill();
        Thread.sleep(downtimeMs);
        redis.restart();
        return new Fault(FaultKind.REDIS_KILL, "redis", pid, start, System.currentTimeMillis());
    }

    @Override
    public Fault pause(long durationMs) throws Exception {
        long start = System.currentTimeMillis();
        redis.pause();
        try {
            Thread.sleep(durationMs);
        } finally {
            redis.resume();
        }
        return new Fault(FaultKind.REDIS_PAUSE, "redis", redis.pid(), start, System.currentTimeMillis());
    }

    @Override
    public Fault failover(long replicaLagMs) {
        throw new UnsupportedOperationException("a standalone Redis has no replica to fail over to");
    }

    @Override
    public void close() {
        redis.close();
    }
}
