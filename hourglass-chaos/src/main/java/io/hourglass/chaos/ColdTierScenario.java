package io.hourglass.chaos;

import io.hourglass.Hourglass;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The middle of the cold-tier scenario ({@link Scenario#coldTier()}), which {@link ScenarioRun} wraps: a fresh Redis
 * ({@code appendfsync always}) and PostgreSQL ({@link ColdTierDatabase}), the tier's table made once, worker processes
 * ({@link WorkerMain}, which need no tier), feeder processes ({@link FeederMain}), the producer ({@link TierProducer})
 * in this process, and the seeded faults; then it waits until neither Redis nor PostgreSQL holds a job, and stops
 * everything.
 */
final class ColdTierScenario {
    private static final Logger LOG = LoggerFactory.getLogger(ColdTierScenario.class);
    /** After the producer is done, how long the jobs may take to drain before the rest is counted as lost. */
    private static final long DRAIN_TIMEOUT_MS = 120_000;

    private final Scenario scenario;
    private final ChaosOptions options;
    private final Path dir;

    ColdTierScenario(Scenario scenario, ChaosOptions options, Path dir) {
        this.scenario = scenario;
        this.options = options;
        this.dir = dir;
    }

    void run() throws Exception {
        Duration horizon = Duration.ofMillis(options.tier().horizonMs());
        try (StandaloneRedis redis = StandaloneRedis.start(dir.resolve("redis"), scenario.appendFsync());
                ColdTierDatabase database =
                        ColdTierDatabase.create(dir.resolve("postgres"), dir.resolve("postgres.console"));
                RecordLog faultLog = new RecordLog(dir.resolve("faults.history"));
                RecordLog producerLog = new RecordLog(dir.resolve("producer.history"))) {
            ClientSettings client = ClientSettings.of(redis.clientUri(), options);
            try (WorkerPool workers = new WorkerPool(dir, client, options);
                    FeederPool feeders = new FeederPool(dir, client, options, database)) {
                // The processes start while PostgreSQL does: a feeder retries every second until the table is there.
                workers.startAll();
                feeders.startAll();
                database.start();
                try (JdbcColdTier tier = JdbcColdTier.builder() // creates the table (Flyway)
                                .namespace(client.namespace)
                                .jdbc(database.jdbcUrl(), database.user(), null)
                                .feeder(false)
                                .build();
                        Hourglass producerClient = client.connect(tier, horizon);
                        Hourglass monitor = client.connect()) {
                    workers.awaitReady(120_000);
                    feeders.awaitReady(120_000);
                    FaultInjector injector =
                            new FaultInjector(FaultPlan.of(scenario, options), feeders, redis, database, faultLog);
                    injector.start(System.currentTimeMillis());
                    TierProducer producer = new TierProducer(
                            producerClient, producerLog, options, options.seed() * 1_000 + scenario.ordinal());
                    if (!producer.run(options.jobsPerScenario(), options.windowMs())) {
                        LOG.warn("{}: some reschedules or cancels did not return in time", scenario.label());
                    }
                    injector.join();
                    awaitDrained(monitor, database);
                }
            }
        }
    }

    /**
     * Waits until no job is left in Redis or in PostgreSQL (but those Redis refused, which stay), twice with a lease
     * and two sweeps in between (for late redeliveries).
     */
    private void awaitDrained(Hourglass monitor, ColdTierDatabase database) throws InterruptedException {
        long deadline = System.currentTimeMillis() + options.tier().maxDelayMs() + DRAIN_TIMEOUT_MS;
        long quietMs = options.leaseMs() + 2 * options.sweepMs() + 1_000;
        int quietChecks = 0;
        while (System.currentTimeMillis() < deadline && quietChecks < 2) {
            quietChecks = pending(monitor, database) == 0 ? quietChecks + 1 : 0;
            Thread.sleep(quietChecks == 1 ? quietMs : 250);
        }
        long[] cold = database.jobs(monitor.namespace());
        try (RecordLog log = new RecordLog(dir.resolve("tier.history"))) {
            log.append("S", Math.max(0, cold[1]));
        }
        if (cold[1] > 0) {
            LOG.warn("{}: {} jobs were refused by Redis and stay in PostgreSQL", scenario.label(), cold[1]);
        }
        if (quietChecks < 2) {
            LOG.warn(
                    "{}: jobs still pending after the drain timeout: {} in Redis, {} in PostgreSQL",
                    scenario.label(),
                    ScenarioRun.pending(monitor),
                    cold[0]);
        }
    }

    /** @return the jobs in Redis and those in PostgreSQL the feeder still means to move; -1 when either is down */
    private static long pending(Hourglass monitor, ColdTierDatabase database) {
        long hot = ScenarioRun.pending(monitor);
        long[] cold = database.jobs(monitor.namespace());
        return hot < 0 || cold[0] < 0 ? -1 : hot + cold[0] - cold[1];
    }
}
