package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.scaleout.FreshJvmStep;
import io.hourglass.bench.systems.DrainResult;

/**
 * 2. End to end. Burst: N jobs all due at one instant a few seconds ahead, drained by 16 consumers; jobs/s from the due
 * instant to the last handler. Sustained: N jobs with a 1 s delay scheduled as fast as possible while 16 consumers run;
 * jobs/s from the first schedule call to the last handler. With {@link BenchContext#freshJvm()} each step also runs
 * once per round in a JVM of its own, never warmed up.
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
                    DrainResult drain = system.burst(redis, sizes.burstJobs(), sizes.consumers(), sizes.burstLead());
                    scope.addDrain(drain, true);
                });
        context.forEachSystem(
                title(),
                "sustained: " + sizes.sustainedJobs() + " jobs, "
                        + sizes.sustainedDelay().toMillis() + " ms delay",
                (system, redis, scope) -> {
                    DrainResult drain =
                            system.sustained(redis, sizes.sustainedJobs(), sizes.sustainedDelay(), sizes.consumers());
                    scope.addDrain(drain, true);
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
                    scope.addDrain(
                            burst
                                    ? system.burst(redis, sizes.burstJobs(), sizes.consumers(), sizes.burstLead())
                                    : system.sustained(
                                            redis, sizes.sustainedJobs(), sizes.sustainedDelay(), sizes.consumers()),
                            true);
                    return;
                }
                FreshJvmStep.Outcome outcome = FreshJvmStep.run(
                        system.name(),
                        burst,
                        redis,
                        burst ? sizes.burstJobs() : sizes.sustainedJobs(),
                        sizes.consumers(),
                        burst ? sizes.burstLead() : sizes.sustainedDelay(),
                        context.workerJvmOptions());
                scope.addDrain(outcome.drain(), true);
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
}
