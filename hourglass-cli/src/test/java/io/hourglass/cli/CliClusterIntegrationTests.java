package io.hourglass.cli;

import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;

/** The suite on a 3-master Redis Cluster, reached through {@code HOURGLASS_CLUSTER} (the seeds of --cluster). */
@RedisTest(clusterMasters = 3, shards = 8)
class CliClusterIntegrationTests extends CliSuite {
    private String seeds;

    @BeforeEach
    void seeds(RedisClusterProcess cluster) {
        seeds = String.join(",", cluster.seedUris());
    }

    @Override
    Map<String, String> redisEnvironment(HourglassFactory factory) {
        return Map.of("HOURGLASS_CLUSTER", seeds, "HOURGLASS_REDIS", "redis://127.0.0.1:1");
    }
}
