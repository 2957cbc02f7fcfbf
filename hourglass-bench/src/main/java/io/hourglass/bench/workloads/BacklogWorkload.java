package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.systems.BacklogIds;
import io.hourglass.bench.systems.DrainResult;
import io.hourglass.bench.systems.QueueSystem;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * 4. A large backlog due far ahead (30-byte payloads): Redis memory per job beyond id and payload; get, cancel and
 * reschedule latency at that backlog (and Hourglass's inspector: a topic overview, a page of 100 jobs); lateness of
 * near-due jobs at a steady rate with the backlog present, against the same rate on an empty Redis. Peers get a smaller
 * backlog (their fill is slow and their by-value lookups scan the whole queue). Last, every system fills the same
 * backlog again, at the peers' size, with the ids it makes itself, and reports Redis memory per job in all: what a user
 * who gives no id pays.
 */
public final class BacklogWorkload implements Workload {
    private static final int PAYLOAD_BYTES = 30;

    @Override
    public String key() {
        return "backlog";
    }

    @Override
    public String title() {
        return "4. Backlog";
    }

    @Override
    public void run(BenchContext context) {
        Sizes sizes = context.sizes();
        String rate = sizes.backlogRate() + " jobs/s for "
                + sizes.backlogRateDuration().toSeconds() + " s";
        context.forEachSystem(
                title(),
                "near-due " + rate + ", no backlog",
                (system, redis, scope) -> scope.addDrain(
                        system.fixedRate(
                                redis,
                                sizes.backlogRate(),
                                sizes.backlogRateDuration(),
                                sizes.consumers(),
                                sizes.fixedRateLead()),
                        false));
        for (int backlog : sizes.backlogs()) {
            String scenario =
                    String.format("backlog %,d (peers %,d)", backlog, Math.min(backlog, sizes.peerBacklogCap()));
            context.forEachSystem(title(), scenario, (system, redis, scope) -> {
                int jobs = system.name() == SystemName.HOURGLASS ? backlog : Math.min(backlog, sizes.peerBacklogCap());
                fillAndMeasure(context, system, redis, scope, jobs);
            });
        }
        int generated = Math.min(sizes.backlogs().get(0), sizes.peerBacklogCap());
        context.forEachSystem(
                title(),
                String.format("backlog %,d, ids the system makes", generated),
                (system, redis, scope) -> fillWithGeneratedIds(redis, system, scope, generated));
    }

    private static void fillWithGeneratedIds(FreshRedis redis, QueueSystem system, ScenarioScope scope, int jobs)
            throws Exception {
        Fill fill = Fill.of(redis, system, jobs, BacklogIds.Source.THE_SYSTEMS_OWN);
        scope.add(
                "Redis memory per job in all, " + PAYLOAD_BYTES + "-byte payloads",
                "bytes",
                Direction.LOWER_IS_BETTER,
                fill.memoryPerJob());
    }

    /**
     * One fill of a backlog and what it cost Redis.
     *
     * @param seconds how long the fill took
     * @param memoryPerJob Redis's {@code used_memory} growth per job, in bytes
     * @param givenBytes the bytes of id and payload the bench gave each job ({@link BacklogIds.Source#givenBytes})
     */
    private record Fill(double seconds, double memoryPerJob, int givenBytes) {
        static Fill of(FreshRedis redis, QueueSystem system, int jobs, BacklogIds.Source ids) throws Exception {
            long before = redis.usedMemory();
            long start = System.nanoTime();
            system.fillBacklog(redis, jobs, PAYLOAD_BYTES, ids);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Fill(seconds, (double) (redis.usedMemory() - before) / jobs, ids.givenBytes(PAYLOAD_BYTES));
        }
    }

    private static void fillAndMeasure(
            BenchContext context, QueueSystem system, FreshRedis redis, ScenarioScope scope, int jobs)
            throws Exception {
        Sizes sizes = context.sizes();
        Fill fill = Fill.of(redis, system, jobs, BacklogIds.Source.GIVEN);
        double seconds = fill.seconds();
        scope.add("backlog", "jobs", Direction.INFO, jobs);
        scope.add("fill rate", "jobs/s", Direction.HIGHER_IS_BETTER, jobs / seconds);
        scope.add(
                "Redis memory per job − id − payload",
                "bytes",
                Direction.LOWER_IS_BETTER,
                fill.memoryPerJob() - fill.givenBytes());
        context.log(system.name().label() + " backlog of " + jobs + " filled in " + Math.round(seconds) + " s");
        Map<String, Histogram> operations = system.backlogOperations(redis, jobs, sizes.operationSamples());
        for (String op : new String[] {"get", "cancel", "reschedule", "inspector overview", "inspector page of 100"}) {
            Histogram h = operations.get(op);
            if (h == null && op.startsWith("inspector")) {
                continue; // Hourglass's own operations: no row for the peers
            }
            if (h == null) {
                scope.add(op + " p99", "µs", Direction.LOWER_IS_BETTER, Double.NaN, "no " + op + " operation");
            } else {
                scope.add(op + " p50", "µs", Direction.LOWER_IS_BETTER, h.getValueAtPercentile(50));
                String samples = h.getTotalCount() < sizes.operationSamples() ? h.getTotalCount() + " samples" : "";
                scope.add(op + " p99", "µs", Direction.LOWER_IS_BETTER, h.getValueAtPercentile(99), samples);
            }
        }
        DrainResult near = system.fixedRate(
                redis, sizes.backlogRate(), sizes.backlogRateDuration(), sizes.consumers(), sizes.fixedRateLead());
        scope.addDrain(near, false);
    }
}
