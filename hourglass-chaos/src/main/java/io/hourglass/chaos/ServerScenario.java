package io.hourglass.chaos;

import io.hourglass.Hourglass;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The middle of a scenario with servers ({@link Scenario#servers()}), which {@link ScenarioRun} wraps: a fresh Redis, a
 * callback receiver, the server processes, the producers and the seeded faults; then it waits until every accepted job
 * was answered 2xx, Redis holds no job, and a late POST or a late callback has had time to show up, and stops
 * everything.
 */
final class ServerScenario {
    private static final Logger LOG = LoggerFactory.getLogger(ServerScenario.class);
    /** After the producers are done, how long the jobs may take to complete before the rest is counted as lost. */
    private static final long DRAIN_TIMEOUT_MS = 180_000;

    private final Scenario scenario;
    private final ChaosOptions options;
    private final Path dir;

    ServerScenario(Scenario scenario, ChaosOptions options, Path dir) {
        this.scenario = scenario;
        this.options = options;
        this.dir = dir;
    }

    void run() throws Exception {
        try (StandaloneRedis redis = StandaloneRedis.start(dir.resolve("redis"), scenario.appendFsync());
                RecordLog faultLog = new RecordLog(dir.resolve("faults.history"));
                RecordLog receiverLog = new RecordLog(dir.resolve("receiver.history"));
                RecordLog producerLog = new RecordLog(dir.resolve("producer.history"));
                CallbackReceiver receiver =
                        CallbackReceiver.start(receiverLog, options.seed(), options.leaseMs() + 3_000);
                ServerFleet servers = new ServerFleet(dir, options, redis.clientUri());
                Hourglass monitor =
                        ClientSettings.of(redis.clientUri(), options).connect()) {
            servers.startAll();
            LOG.info("{}: servers ready at {}, callbacks to {}", scenario.label(), servers.urls(), receiver.url());
            try (HttpProducer producer = new HttpProducer(servers.urls(), receiver.url(), producerLog, options)) {
                FaultInjector injector = new FaultInjector(FaultPlan.of(scenario, options), servers, redis, faultLog);
                injector.start(System.currentTimeMillis());
                if (!producer.run(
                        options.jobsPerScenario(), options.windowMs(), options.seed() * 1_000 + scenario.ordinal())) {
                    LOG.warn("{}: some POSTs got no answer in time; their jobs are not accepted", scenario.label());
                }
                injector.join();
            }
            awaitDrained(monitor, receiver);
        }
    }

    /**
     * Waits until every accepted job was answered 2xx and Redis holds no job, twice with a lease, two sweeps and a
     * producer timeout in between (for late redeliveries and for POSTs a paused server processes late).
     */
    private void awaitDrained(Hourglass monitor, CallbackReceiver receiver) throws InterruptedException {
        long deadline = System.currentTimeMillis() + options.maxDelayMs() + DRAIN_TIMEOUT_MS;
        long quietMs =
                options.leaseMs() + 2 * options.sweepMs() + options.servers().producerTimeoutMs() + 1_000;
        long accepted = History.read(dir).accepted.size();
        int quietChecks = 0;
        while (System.currentTimeMillis() < deadline && quietChecks < 2) {
            boolean done = receiver.completedJobs() >= accepted && ScenarioRun.pending(monitor) == 0;
            quietChecks = done ? quietChecks + 1 : 0;
            Thread.sleep(quietChecks == 1 ? quietMs : 250);
        }
        if (quietChecks < 2) {
            LOG.warn(
                    "{}: after the drain timeout {} of {} accepted jobs are complete, {} jobs in Redis",
                    scenario.label(),
                    receiver.completedJobs(),
                    accepted,
                    ScenarioRun.pending(monitor));
        }
    }
}
