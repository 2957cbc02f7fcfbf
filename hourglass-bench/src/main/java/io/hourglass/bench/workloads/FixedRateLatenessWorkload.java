package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.Workload;
import io.hourglass.bench.systems.DrainResult;

/** 3. Lateness of jobs coming due at a steady rate, each scheduled about a second ahead. */
public final class FixedRateLatenessWorkload implements Workload {
    @Override
    public String key() {
        return "lateness";
    }

    @Override
    public String title() {
        return "3. Fixed-rate lateness";
    }

    @Override
    public void run(BenchContext context) {
        Sizes sizes = context.sizes();
        for (int rate : sizes.rates()) {
            String scenario = rate + " jobs/s for " + sizes.rateDuration().toSeconds() + " s";
            context.forEachSystem(title(), scenario, (system, redis, scope) -> {
                DrainResult drain =
                        system.fixedRate(redis, rate, sizes.rateDuration(), sizes.consumers(), sizes.fixedRateLead());
                scope.addDrain(drain, false);
                context.addLatenessCurve(system.name().label() + " " + rate + "/s", drain.latenessMicros());
            });
        }
    }
}
