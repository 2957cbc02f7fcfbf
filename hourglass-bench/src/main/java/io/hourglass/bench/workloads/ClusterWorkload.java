package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.systems.HourglassSystem;
import io.hourglass.embedded.RedisClusterProcess;
import io.lettuce.core.cluster.SlotHash;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * 5. One topic on a fresh 3-master Redis Cluster ({@code RedisClusterProcess}), with 1 shard and with several:
 * schedule throughput and the burst drain. Hourglass only: a BullMQ queue and a Redisson delayed queue live in one
 * hash slot, so on a cluster they use one master whatever its size (recorded as a note).
 */
public final class ClusterWorkload implements Workload {
  private static final int MASTERS = 3;
  private static final int SLOTS = 16384;

  @Override
  public String key() {
    return "cluster";
  }

  @Override
  public String title() {
    return "5. Cluster";
  }

  @Override
  public void run(BenchContext context) throws Exception {
    Sizes sizes = context.sizes();
    for (int shards : sizes.clusterShards()) {
      String layout = MASTERS + " masters, " + shards + (shards == 1 ? " shard" : " shards") + " ("
          + shardsPerMaster(shards) + " per master)";
      for (int round = 1; round <= context.rounds(); round++) {
        measure(context, layout, shards, round);
      }
    }
    for (SystemName peer : new SystemName[] {SystemName.REDISSON, SystemName.BULLMQ}) {
      context.scope(title(), MASTERS + " masters", peer, 1).add("throughput", "jobs/s", Direction.INFO,
          Double.NaN, "not run: one queue is one hash slot, i.e. one master");
    }
  }

  private void measure(BenchContext context, String layout, int shards, int round) throws Exception {
    Sizes sizes = context.sizes();
    String schedule = layout + ": schedule " + sizes.clusterLoad().label() + ", " + sizes.clusterLoad().jobs()
        + " jobs";
    String burst = layout + ": burst of " + sizes.burstJobs() + " jobs";
    try (RedisClusterProcess cluster = RedisClusterProcess.start(MASTERS)) {
      HourglassSystem system = HourglassSystem.onCluster(cluster.seedUris(), shards);
      double seconds = system.scheduleSeconds(null, sizes.clusterLoad());
      context.scope(title(), schedule, SystemName.HOURGLASS, round).add("accepted", "jobs/s",
          Direction.HIGHER_IS_BETTER, sizes.clusterLoad().jobs() / seconds);
      ScenarioScope scope = context.scope(title(), burst, SystemName.HOURGLASS, round);
      scope.addDrain(system.burst(null, sizes.burstJobs(), sizes.consumers(), sizes.burstLead()), true);
      context.log(title() + " / " + layout + " round " + round + " done");
    } catch (Exception e) {
      context.log(title() + " / " + layout + " FAILED: " + e);
      context.scope(title(), layout, SystemName.HOURGLASS, round).add("failed", "", Direction.INFO, Double.NaN,
          "failed: " + e.getMessage());
    }
  }

  /** Which master each shard's hash tag {@code {bench:bench:k}} lands on, as counts "a/b/c". */
  private static String shardsPerMaster(int shards) {
    int[] counts = new int[MASTERS];
    IntStream.range(0, shards).forEach(k -> {
      int slot = SlotHash.getSlot("bench:bench:" + k);
      counts[Math.min(MASTERS - 1, slot * MASTERS / SLOTS)]++;
    });
    return IntStream.of(counts).mapToObj(String::valueOf).collect(Collectors.joining("/"));
  }
}
