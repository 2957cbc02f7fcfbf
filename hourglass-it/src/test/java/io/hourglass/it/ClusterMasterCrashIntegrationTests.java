package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.WorkerOptions;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A master killed with SIGKILL: the cluster promotes its replica, and Hourglass's producers and workers find the new
 * master by themselves. Jobs the dead master had replicated are delivered; jobs scheduled after it died go to its
 * successor.
 */
@RedisTest(clusterMasters = 3, clusterReplicas = 1, shards = 8)
class ClusterMasterCrashIntegrationTests {
    private static final String TOPIC = "crashing";
    private static final int JOBS_BEFORE = 200;
    private static final int JOBS_AFTER = 200;

    @Test
    void aCrashedMastersReplicaTakesOverAndNoReplicatedJobIsLost(
            HourglassFactory factory, RedisClusterProcess cluster) {
        Hourglass hourglass = factory.create(b -> b.defaultLease(Duration.ofSeconds(2)));
        Map<String, Long> firstDelivery = new ConcurrentHashMap<>();
        Map<String, Long> due = new ConcurrentHashMap<>();
        hourglass.subscribe(
                TOPIC,
                job -> firstDelivery.putIfAbsent(job.id(), System.currentTimeMillis()),
                WorkerOptions.builder().concurrency(8).build());
        Instant dueBefore = Instant.now().plusSeconds(3);
        for (int i = 0; i < JOBS_BEFORE; i++) {
            String id = "before" + i;
            due.put(
                    id,
                    hourglass
                            .schedule(JobRequest.builder(TOPIC)
                                    .id(id)
                                    .runAt(dueBefore)
                                    .build())
                            .dueAt()
                            .toEpochMilli());
        }
        RedisServerProcess victim = cluster.nodes().get(0);
        waitUntilReplicated(victim);

        long crashedAt = System.currentTimeMillis();
        cluster.crash(victim);
        for (int i = 0; i < JOBS_AFTER; i++) {
            String id = "after" + i;
            due.put(
                    id,
                    ClusterUnderLoad.scheduleRetrying(
                                    hourglass,
                                    JobRequest.builder(TOPIC)
                                            .id(id)
                                            .onConflict(OnConflict.KEEP)
                                            .delay(Duration.ofMillis(500))
                                            .build())
                            .dueAt()
                            .toEpochMilli());
        }

        await().atMost(Duration.ofSeconds(40)).until(() -> firstDelivery.size() == JOBS_BEFORE + JOBS_AFTER);
        long recoveredMs =
                firstDelivery.values().stream().mapToLong(Long::longValue).max().orElseThrow() - crashedAt;
        System.out.printf("all %d jobs delivered %d ms after the crash%n", firstDelivery.size(), recoveredMs);
        // The replica takes over about 3 s after the crash here; clients that waited for Lettuce's own topology refresh
        // found it only after 30 s.
        assertThat(recoveredMs)
                .as("ms from the crash to the last first delivery")
                .isLessThan(15_000);
        firstDelivery.forEach(
                (id, at) -> assertThat(at).as("first delivery of %s", id).isGreaterThanOrEqualTo(due.get(id)));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.stats(TOPIC).active() == 0);
    }

    /** WAIT on a write of the victim's own: replication is in order, so every earlier write is on the replica too. */
    private static void waitUntilReplicated(RedisServerProcess master) {
        String key = NodeKeys.firstServedBy(master, "marker", k -> k);
        long replicas = RawRedis.call(master, r -> {
            r.set(key, "x");
            return r.waitForReplication(1, 5000);
        });
        assertThat(replicas).isEqualTo(1);
    }
}
