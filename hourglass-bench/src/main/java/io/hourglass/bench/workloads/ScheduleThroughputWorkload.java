package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.Workload;
import io.hourglass.bench.systems.ScheduleLoad;

/** 1. Jobs accepted per second, by calls in flight per thread and by producer threads. */
public final class ScheduleThroughputWorkload implements Workload {
    @Override
    public String key() {
        return "schedule";
    }

    @Override
    public String title() {
        return "1. Schedule throughput";
    }

    @Override
    public void run(BenchContext context) {
        for (ScheduleLoad load : context.sizes().scheduleLoads()) {
            String scenario = load.label() + ", " + load.jobs() + " jobs";
            context.forEachSystem(title(), scenario, (system, redis, scope) -> {
                double seconds = system.scheduleSeconds(redis, load);
                scope.add("accepted", "jobs/s", Direction.HIGHER_IS_BETTER, load.jobs() / seconds);
            });
        }
    }
}
