package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.StorageFormat;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.cluster.SlotHash;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Moving a topic's slots between masters while jobs are scheduled and delivered loses nothing. */
@RedisTest(clusterMasters = 3, shards = 8)
class ClusterSlotMigrationIntegrationTests {
    private static final String TOPIC = "moving";

    @Test
    void slotsMovedBetweenMastersUnderLoadLoseNoJob(HourglassFactory factory, RedisClusterProcess cluster) {
        AtomicInteger moved = new AtomicInteger();
        ClusterUnderLoad.loseNothingThrough(factory.create(), TOPIC, () -> {
            for (int shard = 0; shard < 4; shard++) {
                int slot = SlotHash.getSlot(StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, shard) + "jobs");
                RedisServerProcess owner = cluster.ownerOf(slot);
                int target =
                        (cluster.nodes().indexOf(owner) + 1) % cluster.nodes().size();
                moved.addAndGet(cluster.migrateSlot(slot, target));
            }
        });
        assertThat(moved).hasPositiveValue();
    }
}
