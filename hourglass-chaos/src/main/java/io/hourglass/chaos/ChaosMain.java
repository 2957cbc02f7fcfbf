package io.hourglass.chaos;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of the fault-injection checker. Prints one line per scenario and exits with 1 if any job was early,
 * any duplicate unexplained, or any job lost in a zero-loss scenario; 2 if a scenario could not run.
 *
 * <pre>
 * java -jar hourglass-chaos/target/hourglass-chaos.jar --jobs 20000 --scenarios all --seed 1
 * java -jar hourglass-chaos/target/hourglass-chaos.jar --jobs 1000000 --worker-kills 100 --redis-restarts 10
 * java -jar hourglass-chaos/target/hourglass-chaos.jar --scenarios http-servers --jobs 24000 --rate 40
 * java -jar hourglass-chaos/target/hourglass-chaos.jar --scenarios cold-tier --jobs 60000 --rate 200
 * </pre>
 */
@Command(
        name = "hourglass-chaos",
        mixinStandardHelpOptions = true,
        description = "Fault-injection checker for Hourglass: schedules jobs, kills and pauses workers and Redis,"
                + " fails over Sentinel, and checks that nothing was lost or early.")
public final class ChaosMain implements Callable<Integer> {
    private final ChaosOptions defaults = ChaosOptions.defaults(Path.of("."));

    @Option(
            names = "--jobs",
            description = "jobs over all scenarios (default: ${DEFAULT-VALUE})",
            defaultValue = "20000")
    long jobs;

    @Option(
            names = "--scenarios",
            defaultValue = "all",
            description = "all, or a comma-separated list of: "
                    + "worker-kills, redis-restarts-always, redis-restarts-everysec, pauses, sentinel-failover,"
                    + " sentinel-failover-wait, http-servers (not in all: needs --server-jar),"
                    + " cold-tier (not in all: runs a PostgreSQL)")
    String scenarios;

    @Option(names = "--seed", defaultValue = "1", description = "decides delays, topics, fault times and targets")
    long seed;

    @Option(names = "--worker-kills", defaultValue = "4", description = "kill -9 of workers in worker-kills")
    int workerKills;

    @Option(
            names = "--redis-restarts",
            defaultValue = "2",
            description = "kill -9 and restarts of Redis in each redis-restarts scenario, http-servers and cold-tier")
    int redisRestarts;

    @Option(names = "--pauses", defaultValue = "2", description = "Redis pauses, and as many worker pauses")
    int pauses;

    @Option(names = "--failovers", defaultValue = "1", description = "failovers in each Sentinel scenario")
    int failovers;

    @Option(names = "--sentinels", defaultValue = "3")
    int sentinels;

    @Option(names = "--workers", defaultValue = "3", description = "worker processes per scenario")
    int workers;

    @Option(names = "--producers", defaultValue = "2", description = "producer processes per scenario")
    int producers;

    @Option(names = "--topics", defaultValue = "4")
    int topics;

    @Option(names = "--shards", defaultValue = "4")
    int shards;

    @Option(names = "--rate", defaultValue = "1000", description = "jobs scheduled per second in each scenario")
    int rate;

    @Option(names = "--max-delay-ms", defaultValue = "3000", description = "jobs are due 0 to this many ms later")
    long maxDelayMs;

    @Option(names = "--lease-ms", defaultValue = "2000")
    long leaseMs;

    @Option(names = "--run-dir", description = "where the history goes (default: chaos-runs/<timestamp>)")
    Path runDir;

    @Option(
            names = "--server-jar",
            defaultValue = "hourglass-server/target/hourglass-server.jar",
            description = "the server's runnable jar, for http-servers (default: ${DEFAULT-VALUE})")
    Path serverJar;

    @Option(names = "--server-kills", defaultValue = "2", description = "kill -9 and restarts of a server")
    int serverKills;

    @Option(
            names = "--server-pauses",
            defaultValue = "2",
            description = "SIGSTOP/SIGCONT of a server, each for the lease + the producer timeout + 1-4 s")
    int serverPauses;

    @Option(
            names = "--producer-timeout-ms",
            defaultValue = "5000",
            description = "how long an HTTP producer waits for an answer before it retries elsewhere")
    long producerTimeoutMs;

    @Option(
            names = "--idempotency-window",
            description = "the servers' --idempotency-window, e.g. 0 to see re-creations (default: the server's)")
    String idempotencyWindow;

    @Option(names = "--feeders", defaultValue = "2", description = "cold-tier: feeder processes")
    int feeders;

    @Option(names = "--feeder-kills", defaultValue = "2", description = "cold-tier: kill -9 of a feeder")
    int feederKills;

    @Option(
            names = "--feeder-pauses",
            defaultValue = "1",
            description = "cold-tier: SIGSTOP/SIGCONT of a feeder, 1-4 s")
    int feederPauses;

    @Option(
            names = "--postgres-kills",
            defaultValue = "2",
            description = "cold-tier: kill -9 of every PostgreSQL process, then a restart")
    int postgresKills;

    @Option(
            names = "--horizon-ms",
            defaultValue = "2000",
            description = "cold-tier: jobs due later than this go to PostgreSQL")
    long horizonMs;

    @Option(
            names = "--tier-max-delay-ms",
            defaultValue = "12000",
            description = "cold-tier: jobs are due 0 to this many ms later (--max-delay-ms is for the others)")
    long tierMaxDelayMs;

    /** @param args see {@code --help} */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosMain()).execute(args));
    }

    @Override
    public Integer call() {
        Path dir = runDir != null
                ? runDir
                : Path.of("chaos-runs", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        ChaosOptions options = new ChaosOptions(
                Scenario.parse(scenarios),
                jobs,
                seed,
                producers,
                workers,
                topics,
                shards,
                defaults.concurrency(),
                leaseMs,
                defaults.sweepMs(),
                maxDelayMs,
                rate,
                defaults.minWindowMs(),
                defaults.handlerMs(),
                workerKills,
                redisRestarts,
                pauses,
                failovers,
                sentinels,
                dir.toAbsolutePath(),
                new ServerOptions(
                        serverJar.toAbsolutePath(),
                        defaults.servers().count(),
                        serverKills,
                        serverPauses,
                        producerTimeoutMs,
                        idempotencyWindow),
                new TierOptions(feeders, feederKills, feederPauses, postgresKills, horizonMs, tierMaxDelayMs));
        System.out.println("hourglass-chaos: " + options.jobsPerScenario() + " jobs per scenario, seed " + seed
                + ", history in " + options.runDir());
        try {
            List<ScenarioResult> results = FaultChecker.run(options, System.out::println);
            boolean passed = FaultChecker.passed(results);
            System.out.println(passed ? "PASSED" : "FAILED");
            return passed ? 0 : 1;
        } catch (Exception e) {
            e.printStackTrace();
            return 2;
        }
    }
}
