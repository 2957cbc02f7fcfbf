package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ReportRow;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.redis.ServerCpu;
import io.hourglass.bench.systems.HourglassSystem;
import io.hourglass.embedded.RedisClusterProcess;
import io.lettuce.core.cluster.SlotHash;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * 5. One topic of {@link Sizes#clusterShards()} shards on fresh Redis Clusters ({@code RedisClusterProcess}) of each
 * size in {@link Sizes#clusterMasters()}: schedule throughput, the burst drain and Redis's CPU per burst job (all
 * masters, and the busiest) on each, then the ratios of each larger cluster to the first. The busiest master's CPU
 * bounds what the cluster can drain where each master has a CPU of its own, which a machine that runs every master and
 * the benchmark on two vCPUs cannot show as throughput. Hourglass only: a BullMQ queue and a Redisson delayed queue
 * live in one hash slot, so on a cluster they use one master whatever its size (recorded as a note).
 */
public final class ClusterWorkload implements Workload {
    private static final int SLOTS = 16384;
    private static final String REDIS_CPU_ALL = "Redis CPU per job, all masters";
    private static final String REDIS_CPU_BUSIEST = "Redis CPU per job, busiest master";

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
        for (int masters : sizes.clusterMasters()) {
            for (int round = 1; round <= context.rounds(); round++) {
                measure(context, masters, round);
            }
        }
        addRatios(context);
        for (SystemName peer : new SystemName[] {SystemName.REDISSON, SystemName.BULLMQ}) {
            context.scope(title(), "any number of masters", peer, 1)
                    .add(
                            "throughput",
                            "jobs/s",
                            Direction.INFO,
                            Double.NaN,
                            "not run: one queue is one hash slot, i.e. one master");
        }
    }

    private void measure(BenchContext context, int masters, int round) throws Exception {
        Sizes sizes = context.sizes();
        String layout = layout(masters, sizes.clusterShards());
        try (RedisClusterProcess cluster = RedisClusterProcess.start(masters, 0, FreshRedis::asBenchmarked)) {
            HourglassSystem system = context.systems().stream()
                    .filter(HourglassSystem.class::isInstance)
                    .map(HourglassSystem.class::cast)
                    .findFirst()
                    .orElseThrow()
                    .onCluster(cluster.seedUris(), sizes.clusterShards());
            double seconds = system.scheduleSeconds(null, sizes.clusterLoad());
            context.scope(title(), scheduleScenario(sizes, layout), SystemName.HOURGLASS, round)
                    .add(
                            "accepted",
                            "jobs/s",
                            Direction.HIGHER_IS_BETTER,
                            sizes.clusterLoad().jobs() / seconds);
            ScenarioScope burst = context.scope(title(), burstScenario(sizes, layout), SystemName.HOURGLASS, round);
            try (ServerCpu cpu = ServerCpu.of(cluster.masterUris())) {
                long[] before = cpu.micros();
                burst.addDrain(system.burst(null, sizes.burstJobs(), sizes.consumers(), sizes.burstLead()), true);
                long[] after = cpu.micros();
                long total = 0;
                long busiest = 0;
                for (int i = 0; i < before.length; i++) {
                    total += after[i] - before[i];
                    busiest = Math.max(busiest, after[i] - before[i]);
                }
                burst.add(
                        REDIS_CPU_ALL,
                        "µs",
                        Direction.LOWER_IS_BETTER,
                        (double) total / sizes.burstJobs(),
                        "scheduling the burst and draining it, summed over the masters");
                burst.add(REDIS_CPU_BUSIEST, "µs", Direction.LOWER_IS_BETTER, (double) busiest / sizes.burstJobs());
            }
            context.log(title() + " / " + layout + " round " + round + " done");
        } catch (Exception e) {
            context.log(title() + " / " + layout + " FAILED: " + e);
            context.scope(title(), layout, SystemName.HOURGLASS, round)
                    .add("failed", "", Direction.INFO, Double.NaN, "failed: " + e.getMessage());
        }
    }

    /** Each larger cluster's medians divided by the first cluster size's: the scale-out the issue asks about. */
    private void addRatios(BenchContext context) {
        Sizes sizes = context.sizes();
        List<Integer> masters = sizes.clusterMasters();
        String base = layout(masters.get(0), sizes.clusterShards());
        List<ReportRow> rows = context.results().rows(title());
        for (int larger : masters.subList(1, masters.size())) {
            String layout = layout(larger, sizes.clusterShards());
            String scenario = larger + " masters ÷ " + masters.get(0) + (masters.get(0) == 1 ? " master" : " masters");
            ScenarioScope scope = context.scope(title(), scenario, SystemName.HOURGLASS, 1);
            Ratios.addClusterRatios(
                    scope,
                    rows,
                    new String[] {scheduleScenario(sizes, layout), scheduleScenario(sizes, base)},
                    new String[] {burstScenario(sizes, layout), burstScenario(sizes, base)},
                    REDIS_CPU_BUSIEST,
                    new int[] {masters.get(0), larger});
        }
    }

    private static String scheduleScenario(Sizes sizes, String layout) {
        return layout + ": schedule " + sizes.clusterLoad().label() + ", "
                + sizes.clusterLoad().jobs() + " jobs";
    }

    private static String burstScenario(Sizes sizes, String layout) {
        return layout + ": burst of " + sizes.burstJobs() + " jobs";
    }

    private static String layout(int masters, int shards) {
        return masters + (masters == 1 ? " master, " : " masters, ") + shards + " shards ("
                + shardsPerMaster(masters, shards) + " per master)";
    }

    /**
     * Which master each shard's hash tag {@code {bench:bench:k}} lands on, as counts "a/b/c"; masters own equal ranges
     * of slots in order, as {@code RedisClusterProcess} assigns them.
     */
    private static String shardsPerMaster(int masters, int shards) {
        int[] counts = new int[masters];
        IntStream.range(0, shards).forEach(k -> {
            int slot = SlotHash.getSlot("bench:bench:" + k);
            counts[Math.min(masters - 1, slot * masters / SLOTS)]++;
        });
        return IntStream.of(counts).mapToObj(String::valueOf).collect(Collectors.joining("/"));
    }
}
