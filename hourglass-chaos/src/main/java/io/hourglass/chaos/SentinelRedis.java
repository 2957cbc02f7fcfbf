package io.hourglass.chaos;

import io.hourglass.embedded.RedisSentinelProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master, one replica and N Sentinels monitoring them as {@value #MASTER_NAME}; no persistence (what is measured is
 * asynchronous replication). Clients use {@code redis-sentinel://127.0.0.1:<port>,...#mymaster}.
 */
final class SentinelRedis implements RedisTopology {
    static final String MASTER_NAME = "mymaster";
    private static final Logger LOG = LoggerFactory.getLogger(SentinelRedis.class);
    private static final Duration TOPOLOGY_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Sentinel's down-after-milliseconds. With 1 s, a Sentinel on a busy 2-vCPU machine once judged the just-promoted
     * master down within a second of the switch and failed back to the old master before it had resynced; the scenario
     * then waited in vain for its one planned failover to settle.
     */
    private static final Duration DOWN_AFTER = Duration.ofMillis(2_000);

    private final List<RedisServerProcess> servers;
    private final List<RedisSentinelProcess> sentinels = new ArrayList<>();
    private final RedisClient admin = RedisClient.create();

    private SentinelRedis(List<RedisServerProcess> servers) {
        this.servers = servers;
    }

    static SentinelRedis start(Path dir, int sentinelCount) throws IOException, InterruptedException {
        RedisServerProcess first =
                RedisServerProcess.builder().dataDir(dir.resolve("redis-a")).start();
        RedisServerProcess second = null;
        SentinelRedis topology = null;
        try {
            second = RedisServerProcess.builder()
                    .dataDir(dir.resolve("redis-b"))
                    .arg("replicaof", "127.0.0.1", Integer.toString(first.port()))
                    .start();
            topology = new SentinelRedis(List.of(first, second));
            topology.awaitReplicaOnline(second);
            int quorum = sentinelCount / 2 + 1;
            for (int i = 0; i < sentinelCount; i++) {
                topology.sentinels.add(RedisSentinelProcess.start(
                        dir.resolve("sentinel-" + i),
                        MASTER_NAME,
                        "127.0.0.1",
                        first.port(),
                        quorum,
                        DOWN_AFTER,
                        Duration.ofMillis(5_000)));
            }
            topology.awaitSentinelsKnowEachOther();
            return topology;
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (topology != null) {
                topology.close();
            } else {
                first.close();
                if (second != null) {
                    second.close();
                }
            }
            throw e;
        }
    }

    @Override
    public String clientUri() {
        return "redis-sentinel://"
                + sentinels.stream().map(s -> "127.0.0.1:" + s.port()).collect(Collectors.joining(",")) + "#"
                + MASTER_NAME;
    }

    @Override
    public Fault killAndRestart(long downtimeMs) {
        throw new UnsupportedOperationException("the Sentinel scenarios inject failovers");
    }

    @Override
    public Fault pause(long durationMs) {
        throw new UnsupportedOperationException("the Sentinel scenarios inject failovers");
    }

    /**
     * Cuts the replica off for {@code replicaLagMs} while the master keeps accepting writes (the replica is frozen with
     * SIGSTOP and the master drops its replication link, as in a network blip: what the master accepts meanwhile stays
     * in its backlog), kills the master with SIGKILL, lets the replica go on, and waits until Sentinel promotes it.
     * Freezing alone would not do: the kernel would buffer the stream for the frozen replica. Then restarts the old
     * master and points it at the new one at once (as an operator's restart script would; Sentinel alone would take
     * about 10 s to convert it), and waits until it is in sync. The fault spans the kill to the end of that resync.
     */
    @Override
    public Fault failover(long replicaLagMs) throws Exception {
        RedisServerProcess master = serverOnPort(masterPort());
        RedisServerProcess replica = servers.get(0) == master ? servers.get(1) : servers.get(0);
        awaitReplicaOnline(replica);
        long pid = master.pid();
        replica.pause();
        try (StatefulRedisConnection<String, String> c = admin.connect(uri(master.port()))) {
            c.sync().clientKill(KillArgs.Builder.typeSlave());
        }
        long start;
        try {
            Thread.sleep(replicaLagMs);
            start = System.currentTimeMillis();
            master.kill();
        } finally {
            replica.resume();
        }
        await("Sentinel to promote the replica on port " + replica.port(), () -> masterPort() == replica.port());
        long promoted = System.currentTimeMillis();
        master.restart();
        try (StatefulRedisConnection<String, String> c = admin.connect(uri(master.port()))) {
            c.sync().replicaof("127.0.0.1", replica.port());
        }
        awaitReplicaOnline(master);
        LOG.info(
                "failover: replica cut off {} ms before the master's kill, promoted {} ms after it",
                replicaLagMs,
                promoted - start);
        return new Fault(FaultKind.FAILOVER, "redis-master", pid, start, System.currentTimeMillis());
    }

    private RedisServerProcess serverOnPort(int port) {
        return servers.stream()
                .filter(s -> s.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("Sentinel names an unknown master port " + port));
    }

    /** @return the master's port by the first Sentinel that answers; -1 if none does */
    private int masterPort() {
        for (RedisSentinelProcess sentinel : sentinels) {
            try (StatefulRedisSentinelConnection<String, String> c = admin.connectSentinel(uri(sentinel.port()))) {
                SocketAddress address = c.sync().getMasterAddrByName(MASTER_NAME);
                if (address instanceof InetSocketAddress inet) {
                    return inet.getPort();
                }
            } catch (RuntimeException e) {
                // try the next sentinel
            }
        }
        return -1;
    }

    private void awaitReplicaOnline(RedisServerProcess replica) throws InterruptedException {
        await("replica on port " + replica.port() + " to be in sync", () -> {
            try (StatefulRedisConnection<String, String> c = admin.connect(uri(replica.port()))) {
                String info = c.sync().info("replication");
                return info.contains("role:slave")
                        && info.contains("master_link_status:up")
                        && !info.contains("master_sync_in_progress:1");
            } catch (RuntimeException e) {
                return false;
            }
        });
    }

    private void awaitSentinelsKnowEachOther() throws InterruptedException {
        int others = sentinels.size() - 1;
        for (RedisSentinelProcess sentinel : sentinels) {
            await("sentinel " + sentinel.port() + " to see the replica and " + others + " other sentinels", () -> {
                try (StatefulRedisSentinelConnection<String, String> c = admin.connectSentinel(uri(sentinel.port()))) {
                    Map<String, String> master = c.sync().master(MASTER_NAME);
                    return Integer.parseInt(master.getOrDefault("num-slaves", "0")) >= 1
                            && Integer.parseInt(master.getOrDefault("num-other-sentinels", "0")) >= others;
                } catch (RuntimeException e) {
                    return false;
                }
            });
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TOPOLOGY_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private static RedisURI uri(int port) {
        return RedisURI.builder()
                .withHost("127.0.0.1")
                .withPort(port)
                .withTimeout(Duration.ofSeconds(2))
                .build();
    }

    @Override
    public void close() {
        sentinels.forEach(RedisSentinelProcess::close);
        servers.forEach(RedisServerProcess::close);
        admin.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
