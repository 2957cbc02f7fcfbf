package io.hourglass.chaos;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything one run of the checker needs. {@link #defaults(Path)} is the short run of the test suite.
 *
 * @param scenarios the scenarios to run, in order
 * @param totalJobs jobs over all scenarios, split evenly between them
 * @param seed decides delays, topics, fault times and targets
 * @param producers producer processes per scenario
 * @param workers worker processes per scenario (even ones subscribe, odd ones pull)
 * @param topics topics the jobs are spread over
 * @param shards shards per topic
 * @param concurrency handler slots per worker and topic
 * @param leaseMs lease of each delivery
 * @param sweepMs workers' backstop sweep interval
 * @param maxDelayMs jobs are due 0 to this many ms after they are scheduled
 * @param rate jobs per second each scenario schedules (over all its producers)
 * @param minWindowMs the shortest time over which a scenario's jobs are scheduled
 * @param handlerMs how long each handler works
 * @param workerKills worker kills in {@code worker-kills}
 * @param redisRestarts Redis kills and restarts in each {@code redis-restarts-*} scenario
 * @param pauses Redis pauses and, as many again, worker pauses in {@code pauses}
 * @param failovers failovers in each Sentinel scenario
 * @param sentinels Sentinel processes in the Sentinel scenarios
 * @param runDir where history files, Redis data and logs go, one folder per scenario
 * @param servers the settings of the scenarios that run {@code hourglass-server} processes
 * @param tier the settings of the cold-tier scenario
 */
public record ChaosOptions(
        List<Scenario> scenarios,
        long totalJobs,
        long seed,
        int producers,
        int workers,
        int topics,
        int shards,
        int concurrency,
        long leaseMs,
        long sweepMs,
        long maxDelayMs,
        int rate,
        long minWindowMs,
        long handlerMs,
        int workerKills,
        int redisRestarts,
        int pauses,
        int failovers,
        int sentinels,
        Path runDir,
        ServerOptions servers,
        TierOptions tier) {

    /**
     * The short run: about 20 000 jobs over every scenario, every fault kind at least once.
     *
     * @param runDir where to put the history
     * @return the options
     */
    public static ChaosOptions defaults(Path runDir) {
        return new ChaosOptions(
                Scenario.parse("all"),
                20_000,
                1,
                2,
                3,
                4,
                4,
                8,
                2_000,
                250,
                3_000,
                1_000,
                6_000,
                10,
                4,
                2,
                2,
                1,
                3,
                runDir,
                ServerOptions.defaults(),
                TierOptions.defaults());
    }

    /** @return a copy with other scenarios */
    public ChaosOptions withScenarios(List<Scenario> scenarios) {
        return new ChaosOptions(
                scenarios,
                totalJobs,
                seed,
                producers,
                workers,
                topics,
                shards,
                concurrency,
                leaseMs,
                sweepMs,
                maxDelayMs,
                rate,
                minWindowMs,
                handlerMs,
                workerKills,
                redisRestarts,
                pauses,
                failovers,
                sentinels,
                runDir,
                servers,
                tier);
    }

    /** @return jobs per scenario, at least 1 */
    long jobsPerScenario() {
        return Math.max(1, totalJobs / scenarios.size());
    }

    /** @return how long a scenario's producers take to schedule its jobs at {@link #rate} */
    long windowMs() {
        return Math.max(minWindowMs, jobsPerScenario() * 1000 / rate);
    }
}
