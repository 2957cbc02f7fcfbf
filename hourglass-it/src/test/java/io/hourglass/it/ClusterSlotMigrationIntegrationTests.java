package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.WorkerOptions;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** Moving a topic's slots between masters while jobs are scheduled and delivered loses nothing. */
@RedisTest(clusterMasters = 3, shards = 8)
class ClusterSlotMigrationIntegrationTests {
  private static final String TOPIC = "moving";

  @Test
  void slotsMovedBetweenMastersUnderLoadLoseNoJob(HourglassFactory factory, RedisClusterProcess cluster) {
    Hourglass hourglass = factory.create();
    Map<String, Long> firstDelivery = new ConcurrentHashMap<>();
    Map<String, Long> due = new ConcurrentHashMap<>();
    hourglass.subscribe(TOPIC, job -> firstDelivery.putIfAbsent(job.id(), System.currentTimeMillis()),
        WorkerOptions.builder().concurrency(8).build());

    CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
      for (int i = 0; i < 400; i++) {
        String id = "m" + i;
        ScheduleResult r = scheduleRetrying(hourglass, JobRequest.builder(TOPIC).id(id)
            .delay(Duration.ofMillis(ThreadLocalRandom.current().nextLong(0, 2500)))
            .onConflict(OnConflict.KEEP).build());
        due.put(id, r.dueAt().toEpochMilli());
      }
    });
    int moved = 0;
    for (int shard = 0; shard < 4; shard++) {
      int slot = SlotHash.getSlot("hg:{" + factory.namespace() + ":" + TOPIC + ":" + shard + "}:jobs");
      RedisServerProcess owner = cluster.ownerOf(slot);
      int target = (cluster.nodes().indexOf(owner) + 1) % cluster.nodes().size();
      moved += cluster.migrateSlot(slot, target);
    }
    producer.join();

    await().atMost(Duration.ofSeconds(20)).until(() -> firstDelivery.size() == 400);
    assertThat(moved).isPositive();
    for (Map.Entry<String, Long> e : firstDelivery.entrySet()) {
      assertThat(e.getValue()).as("first delivery of %s", e.getKey()).isGreaterThanOrEqualTo(due.get(e.getKey()));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> hourglass.stats(TOPIC).active() == 0);
  }

  /** A producer's retry: the same id with KEEP makes a retried schedule harmless. */
  private static ScheduleResult scheduleRetrying(Hourglass hourglass, JobRequest request) {
    RuntimeException last = null;
    for (int attempt = 0; attempt < 100; attempt++) {
      try {
        return hourglass.schedule(request);
      } catch (RuntimeException e) {
        last = e;
        sleep(20);
      }
    }
    throw last;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
