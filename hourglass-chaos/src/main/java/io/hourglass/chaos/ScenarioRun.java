package io.hourglass.chaos;

import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.TopicStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one scenario: a fresh Redis (or master, replica and Sentinels), worker and producer processes (or servers, HTTP
 * producers and a callback receiver: {@link ServerScenario}; or a cold tier, feeders and workers:
 * {@link ColdTierScenario}), the seeded faults; then waits until Redis holds no job and the leases have had time to
 * expire, stops everything and checks the history offline.
 */
final class ScenarioRun {
    private static final Logger LOG = LoggerFactory.getLogger(ScenarioRun.class);
    /** After the producers are done, how long the jobs may take to drain before the rest is counted as lost. */
    private static final long DRAIN_TIMEOUT_MS = 120_000;

    private final Scenario scenario;
    private final ChaosOptions options;
    private final Path dir;

    ScenarioRun(Scenario scenario, ChaosOptions options) {
        this.scenario = scenario;
        this.options = options;
        this.dir = options.runDir().resolve(scenario.label());
    }

    ScenarioResult run() throws Exception {
        Files.createDirectories(dir);
        long start = System.currentTimeMillis();
        LOG.info(
                "{}: {} jobs over {} s, faults {}",
                scenario.label(),
                options.jobsPerScenario(),
                options.windowMs() / 1000,
                FaultPlan.of(scenario, options));
        if (scenario.servers()) {
            new ServerScenario(scenario, options, dir).run();
        } else if (scenario.coldTier()) {
            new ColdTierScenario(scenario, options, dir).run();
        } else {
            runWorkers();
        }
        long duration = System.currentTimeMillis() - start;
        History history = History.read(dir);
        if (scenario.coldTier()) {
            return new ColdTierChecker(scenario, options.leaseMs()).check(history, duration);
        }
        return scenario.servers()
                ? new CallbackHistoryChecker(scenario, options.leaseMs()).check(history, duration)
                : new HistoryChecker(scenario, options.leaseMs()).check(history, duration);
    }

    private void runWorkers() throws Exception {
        try (RedisTopology redis = startRedis();
                RecordLog faultLog = new RecordLog(dir.resolve("faults.history"))) {
            ClientSettings client = clientSettings(redis.clientUri());
            List<ChildJvm> producers = new ArrayList<>();
            try (WorkerPool workers = new WorkerPool(dir, client, options);
                    Hourglass monitor = client.connect()) {
                workers.startAll();
                producers = startProducers(client);
                workers.awaitReady(120_000);
                for (ChildJvm producer : producers) {
                    producer.awaitOutput(ProducerMain.READY, 120_000);
                }
                producers.forEach(p -> p.send(ParentWatch.GO));
                long faultsFrom = System.currentTimeMillis();
                FaultInjector injector = new FaultInjector(FaultPlan.of(scenario, options), workers, redis, faultLog);
                injector.start(faultsFrom);
                awaitProducers(producers);
                injector.join();
                awaitDrained(monitor);
            } finally {
                producers.forEach(p -> {
                    if (p.isAlive()) {
                        p.kill();
                    }
                });
            }
        }
    }

    private RedisTopology startRedis() throws IOException, InterruptedException {
        return scenario.sentinel()
                ? SentinelRedis.start(dir, options.sentinels())
                : StandaloneRedis.start(dir.resolve("redis"), scenario.appendFsync());
    }

    private ClientSettings clientSettings(String uri) {
        ClientSettings client = ClientSettings.of(uri, options);
        client.waitReplicas = scenario == Scenario.SENTINEL_FAILOVER_WAIT ? 1 : 0;
        return client;
    }

    private List<ChildJvm> startProducers(ClientSettings client) {
        List<ChildJvm> producers = new ArrayList<>();
        long jobs = options.jobsPerScenario();
        for (int p = 0; p < options.producers(); p++) {
            long first = jobs * p / options.producers();
            long count = jobs * (p + 1) / options.producers() - first;
            List<String> args = new ArrayList<>(List.of(client.toArgs()));
            args.addAll(List.of(
                    "--topics",
                    Integer.toString(options.topics()),
                    "--first-job",
                    Long.toString(first),
                    "--jobs",
                    Long.toString(count),
                    "--duration-ms",
                    Long.toString(options.windowMs()),
                    "--max-delay-ms",
                    Long.toString(options.maxDelayMs()),
                    "--seed",
                    Long.toString(options.seed() * 1_000 + scenario.ordinal()),
                    "--out",
                    dir.resolve("producer-" + p + ".history").toString()));
            producers.add(ChildJvm.start(
                    "producer-" + p, ProducerMain.class, args, dir.resolve("producer-" + p + ".console")));
        }
        return producers;
    }

    private void awaitProducers(List<ChildJvm> producers) {
        long timeoutMs = options.windowMs() + 600_000;
        for (ChildJvm producer : producers) {
            if (!producer.awaitExit(timeoutMs)) {
                LOG.warn(
                        "{}: {} did not finish in time; its unfinished jobs are not accepted",
                        scenario.label(),
                        producer);
            } else if (producer.exitValue() != 0) {
                LOG.warn(
                        "{}: {} exited with {}; see its console file",
                        scenario.label(),
                        producer,
                        producer.exitValue());
            }
        }
    }

    /** Waits until no job is left in Redis, twice with a lease and two sweeps in between (for late redeliveries). */
    private void awaitDrained(Hourglass monitor) throws InterruptedException {
        long deadline = System.currentTimeMillis() + options.maxDelayMs() + DRAIN_TIMEOUT_MS;
        long quietMs = options.leaseMs() + 2 * options.sweepMs() + 1_000;
        int quietChecks = 0;
        while (System.currentTimeMillis() < deadline && quietChecks < 2) {
            long pending = pending(monitor);
            quietChecks = pending == 0 ? quietChecks + 1 : 0;
            Thread.sleep(quietChecks == 1 ? quietMs : 250);
        }
        if (quietChecks < 2) {
            LOG.warn("{}: jobs still pending after the drain timeout: {}", scenario.label(), pending(monitor));
        }
    }

    /** @return the jobs in Redis (scheduled, ready or active), or -1 when Redis does not answer */
    static long pending(Hourglass monitor) {
        try {
            long pending = 0;
            for (TopicStats stats : monitor.topics()) {
                pending += stats.scheduled() + stats.ready() + stats.active();
            }
            return pending;
        } catch (HourglassException e) {
            return -1;
        }
    }
}
