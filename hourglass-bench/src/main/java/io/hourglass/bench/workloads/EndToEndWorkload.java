package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.Workload;
import io.hourglass.bench.systems.DrainResult;

/**
 * 2. End to end. Burst: N jobs all due at one instant a few seconds ahead, drained by 16 consumers; jobs/s from the due
 * instant to the last handler. Sustained: N jobs with a 1 s delay scheduled as fast as possible while 16 consumers run;
 * jobs/s from the first schedule call to the last handler.
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
    }
}
