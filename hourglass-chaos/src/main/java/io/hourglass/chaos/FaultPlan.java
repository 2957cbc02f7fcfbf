package io.hourglass.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seeded random schedule of a scenario's faults: their kinds and counts come from the scenario and the options,
 * their times (uniform over the time the producers schedule jobs), targets and durations from the seed.
 */
final class FaultPlan {
    private FaultPlan() {}

    static List<PlannedFault> of(Scenario scenario, ChaosOptions options) {
        SplittableRandom random = new SplittableRandom(options.seed() * 31 + scenario.ordinal());
        List<PlannedFault> plan = new ArrayList<>();
        switch (scenario) {
            case WORKER_KILLS -> add(plan, random, options, FaultKind.WORKER_KILL, options.workerKills());
            case REDIS_RESTARTS_ALWAYS, REDIS_RESTARTS_EVERYSEC ->
                add(plan, random, options, FaultKind.REDIS_KILL, options.redisRestarts());
            case PAUSES -> {
                add(plan, random, options, FaultKind.REDIS_PAUSE, options.pauses());
                add(plan, random, options, FaultKind.WORKER_PAUSE, options.pauses());
            }
            case SENTINEL_FAILOVER, SENTINEL_FAILOVER_WAIT ->
                add(plan, random, options, FaultKind.FAILOVER, options.failovers());
            case HTTP_SERVERS -> {
                add(
                        plan,
                        random,
                        options,
                        FaultKind.SERVER_PAUSE,
                        options.servers().serverPauses());
                add(
                        plan,
                        random,
                        options,
                        FaultKind.SERVER_KILL,
                        options.servers().serverKills());
                add(plan, random, options, FaultKind.REDIS_KILL, options.redisRestarts());
            }
            case COLD_TIER -> {
                TierOptions tier = options.tier();
                // Jobs are moved until the last of them is due: the faults spread over that time too.
                long until = options.windowMs() + tier.maxDelayMs() - 2_000;
                add(plan, random, options, FaultKind.FEEDER_KILL, tier.feederKills(), until);
                add(plan, random, options, FaultKind.FEEDER_PAUSE, tier.feederPauses(), until);
                add(plan, random, options, FaultKind.POSTGRES_KILL, tier.postgresKills(), until);
                add(plan, random, options, FaultKind.REDIS_KILL, options.redisRestarts(), until);
            }
            default -> throw new IllegalArgumentException("no plan for " + scenario);
        }
        plan.sort(Comparator.comparingLong(PlannedFault::atMs));
        return plan;
    }

    private static void add(
            List<PlannedFault> plan, SplittableRandom random, ChaosOptions options, FaultKind kind, int count) {
        add(plan, random, options, kind, count, options.windowMs());
    }

    private static void add(
            List<PlannedFault> plan,
            SplittableRandom random,
            ChaosOptions options,
            FaultKind kind,
            int count,
            long until) {
        long from = 1_000;
        boolean feeder = kind == FaultKind.FEEDER_KILL || kind == FaultKind.FEEDER_PAUSE;
        long to = Math.max(from + 1, until);
        for (int i = 0; i < count; i++) {
            long at = random.nextLong(from, to);
            boolean server = kind == FaultKind.SERVER_KILL || kind == FaultKind.SERVER_PAUSE;
            int target = random.nextInt(
                    server ? options.servers().count() : feeder ? options.tier().feeders() : options.workers());
            long duration =
                    switch (kind) {
                        case WORKER_PAUSE, REDIS_PAUSE -> options.leaseMs() + random.nextLong(500, 2_000);
                        case REDIS_KILL, POSTGRES_KILL -> random.nextLong(200, 1_500);
                        case FEEDER_PAUSE -> random.nextLong(1_000, 4_000);
                        // longer than a lease and a producer's timeout: a POST sent into the pause is given up on
                        // and retried elsewhere, its job can run and be acked, and then the paused server wakes up
                        // and processes that POST
                        case SERVER_PAUSE ->
                            options.leaseMs() + options.servers().producerTimeoutMs() + random.nextLong(1_000, 4_000);
                        case FAILOVER ->
                            random.nextLong(300, 900); // how long the replica lags behind before the master dies
                        default -> 0;
                    };
            plan.add(new PlannedFault(at, kind, target, duration));
        }
    }
}
