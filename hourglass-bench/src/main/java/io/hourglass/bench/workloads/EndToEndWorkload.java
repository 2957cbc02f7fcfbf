package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.BusyShares;
import io.hourglass.bench.redis.CommandStats;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.redis.ServerCpu;
import io.hourglass.bench.scaleout.FreshJvmStep;
import io.hourglass.bench.systems.DrainResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * 2. End to end. Burst: N jobs all due at one instant a few seconds ahead, drained by 16 consumers; jobs/s from the due
 * instant to the last handler. Sustained: N jobs with a 1 s delay scheduled as fast as possible while 16 consumers run;
 * jobs/s from the first schedule call to the last handler. With {@link BenchContext#freshJvm()} each step also runs
 * once per round in a JVM of its own, never warmed up. Every step also reports Redis's CPU per job and, for the
 * sustained run, the share of a core Redis used and of the machine all processes used, so that a run can tell whether
 * the one Redis, the machine or neither binds it.
 */
public final class EndToEndWorkload implements Workload {
    @Override
    public String key() {
        return "e2e";
    }

    @Override
    public String title() {
        return "2. End-to-end";
    }

    @Override
    public void run(BenchContext context) {
        Sizes sizes = context.sizes();
        context.forEachSystem(
                title(), "burst: " + sizes.burstJobs() + " jobs due at one instant", (system, redis, scope) -> {
                    withServerCpu(
                            redis,
                            scope,
                            null,
                            () -> system.burst(redis, sizes.burstJobs(), sizes.consumers(), sizes.burstLead()));
                });
        context.forEachSystem(
                title(),
                "sustained: " + sizes.sustainedJobs() + " jobs, "
                        + sizes.sustainedDelay().toMillis() + " ms delay",
                (system, redis, scope) -> {
                    withServerCpu(
                            redis,
                            scope,
                            sizes.sustainedDelay(),
                            () -> system.sustained(
                                    redis, sizes.sustainedJobs(), sizes.sustainedDelay(), sizes.consumers()));
                });
        if (context.freshJvm()) {
            runInFreshJvms(context, sizes);
        }
    }

    /**
     * The same two steps with each JVM-side system in a JVM started for that step alone, never warmed up (BullMQ runs
     * in a fresh Node.js process anyway); the JVM's CPU per job is its producer's and its worker's together.
     */
    private void runInFreshJvms(BenchContext context, Sizes sizes) {
        for (boolean burst : new boolean[] {true, false}) {
            String scenario = burst
                    ? "burst: " + sizes.burstJobs() + " jobs due at one instant, fresh JVM"
                    : "sustained: " + sizes.sustainedJobs() + " jobs, "
                            + sizes.sustainedDelay().toMillis() + " ms delay, fresh JVM";
            context.forEachSystem(title(), scenario, (system, redis, scope) -> {
                if (system.name() == SystemName.BULLMQ) {
                    withServerCpu(
                            redis,
                            scope,
                            burst ? null : sizes.sustainedDelay(),
                            () -> burst
                                    ? system.burst(redis, sizes.burstJobs(), sizes.consumers(), sizes.burstLead())
                                    : system.sustained(
                                            redis, sizes.sustainedJobs(), sizes.sustainedDelay(), sizes.consumers()));
                    return;
                }
                FreshJvmStep.Outcome outcome = withServerCpu(
                        redis,
                        scope,
                        burst ? null : sizes.sustainedDelay(),
                        () -> FreshJvmStep.run(
                                system.name(),
                                burst,
                                redis,
                                burst ? sizes.burstJobs() : sizes.sustainedJobs(),
                                sizes.consumers(),
                                burst ? sizes.burstLead() : sizes.sustainedDelay(),
                                context.workerJvmOptions()),
                        FreshJvmStep.Outcome::drain);
                scope.add(
                        "JVM CPU per job, producer and worker",
                        "µs",
                        Direction.LOWER_IS_BETTER,
                        outcome.cpuNanos()
                                / 1000.0
                                / Math.max(1, outcome.drain().delivered()),
                        "the fresh JVM's CPU over the step; JIT and GC included");
                scope.add("JIT time", "ms", Direction.INFO, outcome.jitMillis());
            });
        }
    }

    /**
     * Runs one step and records its drain, then what Redis spent on it: CPU and script calls per delivered job,
     * scheduling and draining together, and with {@code firstDue} (the sustained run's delay; null for none) the share
     * of one core Redis used and the share of every core the machine used while Redis worked ({@link BusyShares}: a
     * system that schedules faster than the jobs' delay waits idle between its last schedule and its first due job),
     * and Redis's CPU per job before the first job is due and from then on.
     */
    private static DrainResult withServerCpu(
            FreshRedis redis, ScenarioScope scope, Duration firstDue, Callable<DrainResult> step) throws Exception {
        return withServerCpu(redis, scope, firstDue, step, drain -> drain);
    }

    private static <T> T withServerCpu(
            FreshRedis redis,
            ScenarioScope scope,
            Duration firstDue,
            Callable<T> step,
            Function<T, DrainResult> drainOf)
            throws Exception {
        try (ServerCpu cpu = ServerCpu.of(List.of(redis.uri()));
                BusyShares busy = firstDue != null ? BusyShares.start(redis.uri()) : null) {
            long before = cpu.micros()[0];
            CommandStats statsBefore = redis.commandStats();
            T outcome = step.call();
            DrainResult drain = drainOf.apply(outcome);
            long redisMicros = cpu.micros()[0] - before;
            CommandStats spent = redis.commandStats().since(statsBefore);
            double jobs = Math.max(1, drain.delivered());
            scope.addDrain(drain, true);
            scope.add(
                    "Redis CPU per job",
                    "µs",
                    Direction.LOWER_IS_BETTER,
                    redisMicros / jobs,
                    "scheduling and draining (INFO cpu)");
            scope.add(
                    "script calls per job",
                    "calls",
                    Direction.LOWER_IS_BETTER,
                    spent.scriptCalls() / jobs,
                    "scheduling and draining (INFO commandstats)");
            scope.add(
                    "Redis time in script calls per job",
                    "µs",
                    Direction.LOWER_IS_BETTER,
                    spent.scriptMicros() / jobs,
                    "their commands included (INFO commandstats)");
            scope.add(
                    "Redis time in commands per job",
                    "µs",
                    Direction.LOWER_IS_BETTER,
                    spent.commandMicros() / jobs,
                    "every command but the script calls, the scripts' own included: for Hourglass, whose commands all"
                            + " run in scripts, the script calls' time less this is Lua's and the bridge's");
            if (busy != null) {
                BusyShares.Shares busyShares = busy.stop(firstDue);
                scope.add(
                        "Redis CPU use while busy",
                        "% of a core",
                        Direction.INFO,
                        busyShares.redisPercent(),
                        "over the " + BusyShares.INTERVAL_MILLIS
                                + " ms intervals in which Redis worked; near 100: the one Redis binds");
                scope.add(
                        "machine's CPU use while busy",
                        "%",
                        Direction.INFO,
                        busyShares.machinePercent(),
                        "all cores (/proc/stat) over the same intervals; near 100: the machine binds");
                scope.add(
                        "time with Redis idle",
                        "s",
                        Direction.INFO,
                        busyShares.idleSeconds(),
                        "within the step: waits in which nothing ran, left out of the two shares");
                long delivered = Math.max(1, drain.delivered());
                scope.add(
                        "Redis CPU before the first job is due, per job",
                        "µs",
                        Direction.INFO,
                        busyShares.redisMicrosBeforeSplit() / (double) delivered,
                        "scheduling, where it ended before the first job was due (then Redis idled a while)");
                scope.add(
                        "Redis CPU from then on, per job",
                        "µs",
                        Direction.INFO,
                        busyShares.redisMicrosAfterSplit() / (double) delivered,
                        "draining, and what scheduling was left");
            }
            return outcome;
        }
    }
}
