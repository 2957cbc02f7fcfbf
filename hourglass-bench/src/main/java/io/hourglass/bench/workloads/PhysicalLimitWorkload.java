package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.CommandStats;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.redis.RedisBenchmark;
import io.hourglass.bench.systems.DrainResult;
import java.util.Map;

/**
 * 6. The physical limit: what the same kind of Redis does with {@code redis-benchmark} (SET/GET, unpipelined and with
 * 16 commands per pipeline), and what each system asks of Redis per job ({@code INFO commandstats} deltas over a burst
 * and over a steady 1k jobs/s: every command, including those scripts run, EVALSHA/EVAL/FCALL calls, i.e. script round
 * trips, and the time Redis spent in scripts).
 */
public final class PhysicalLimitWorkload implements Workload {
    private static final int TOP_COMMANDS = 8;

    @Override
    public String key() {
        return "physical";
    }

    @Override
    public String title() {
        return "6. Physical limit";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        Sizes sizes = context.sizes();
        for (int pipeline : new int[] {1, 16}) {
            String scenario = "redis-benchmark -t set,get -n " + sizes.benchmarkRequests()
                    + (pipeline == 1 ? " (unpipelined)" : " -P " + pipeline);
            try (FreshRedis redis = FreshRedis.start()) {
                Map<String, Double> rates = RedisBenchmark.run(redis.port(), sizes.benchmarkRequests(), pipeline);
                ScenarioScope scope = context.scope(title(), scenario, SystemName.REDIS, 1);
                rates.forEach((test, rate) -> scope.add(test, "ops/s", Direction.HIGHER_IS_BETTER, rate));
            }
        }
        context.forEachSystem(
                title(), "Redis calls, burst of " + sizes.commandCountJobs() + " jobs", (system, redis, scope) -> {
                    CommandStats before = redis.commandStats();
                    DrainResult drain =
                            system.burst(redis, sizes.commandCountJobs(), sizes.consumers(), sizes.burstLead());
                    record(scope, redis.commandStats().since(before), drain.delivered());
                });
        context.forEachSystem(
                title(),
                "Redis calls, 1000 jobs/s for " + sizes.commandCountDuration().toSeconds() + " s",
                (system, redis, scope) -> {
                    CommandStats before = redis.commandStats();
                    DrainResult drain = system.fixedRate(
                            redis, 1000, sizes.commandCountDuration(), sizes.consumers(), sizes.fixedRateLead());
                    record(scope, redis.commandStats().since(before), drain.delivered());
                });
    }

    private static void record(ScenarioScope scope, CommandStats calls, long jobs) {
        scope.add(
                "commands per job (incl. inside scripts)",
                "calls",
                Direction.LOWER_IS_BETTER,
                (double) calls.total() / jobs,
                calls.topPerJob(jobs, TOP_COMMANDS));
        scope.add(
                "script calls per job (EVALSHA, EVAL, FCALL)",
                "calls",
                Direction.LOWER_IS_BETTER,
                (double) calls.scriptCalls() / jobs);
        scope.add(
                "Redis time in scripts per job", "µs", Direction.LOWER_IS_BETTER, (double) calls.scriptMicros() / jobs);
        // Beside the scripts' time, that of the commands (theirs included): what is left of a system whose commands
        // all run in scripts is the Lua interpreter's, which tells whether a machine is slow at Lua or at Redis's
        // own work.
        scope.add(
                "Redis time in commands per job (scripts' commands included, script calls excluded)",
                "µs",
                Direction.LOWER_IS_BETTER,
                (double) calls.commandMicros() / jobs);
    }
}
