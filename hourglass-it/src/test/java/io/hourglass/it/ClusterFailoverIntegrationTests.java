package io.hourglass.it;

import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import org.junit.jupiter.api.Test;

/**
 * Failing masters over to their replicas while jobs are scheduled and delivered loses nothing: the operator's
 * {@code CLUSTER FAILOVER}, in which the replica catches up with its master before it takes over. (A master that
 * crashes can lose the writes it had not yet replicated, as with Sentinel; see RELIABILITY.md.)
 */
@RedisTest(clusterMasters = 3, clusterReplicas = 1, shards = 8)
class ClusterFailoverIntegrationTests {
    private static final String TOPIC = "failing-over";

    @Test
    void mastersFailedOverUnderLoadLoseNoJob(HourglassFactory factory, RedisClusterProcess cluster) {
        ClusterUnderLoad.loseNothingThrough(factory.create(), TOPIC, () -> {
            for (RedisServerProcess replica : cluster.replicas().subList(0, 2)) {
                cluster.failover(replica);
            }
        });
    }
}
