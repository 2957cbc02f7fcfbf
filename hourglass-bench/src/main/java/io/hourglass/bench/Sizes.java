package io.hourglass.bench;

import io.hourglass.bench.systems.ScheduleLoad;
import java.time.Duration;
import java.util.List;

/**
 * How big each workload is: the full sizes of the performance issue, or tiny ones for a smoke run of seconds.
 *
 * @param consumers concurrent handlers of every consuming system
 * @param scheduleLoads schedule-throughput configurations
 * @param burstJobs jobs of the burst drain
 * @param burstLead how far ahead the burst's common due time is (scheduling must finish first)
 * @param sustainedJobs jobs of the sustained run
 * @param sustainedDelay delay of each sustained job
 * @param rates fixed rates, jobs due per second
 * @param rateDuration how long each fixed rate lasts
 * @param backlogs backlog sizes for Hourglass
 * @param peerBacklogCap largest backlog filled for the peers
 * @param operationSamples timed calls per backlog operation
 * @param backlogRate rate of near-due jobs run with and without the backlog
 * @param backlogRateDuration how long that rate lasts
 * @param benchmarkRequests {@code redis-benchmark -n}
 * @param commandCountJobs jobs of the burst whose Redis commands are counted
 * @param commandCountDuration how long the 1k/s run whose Redis commands are counted lasts
 * @param fixedRateLead how long before its due time each fixed-rate job is scheduled
 * @param clusterLoad schedule-throughput configuration on the cluster
 * @param clusterMasters cluster sizes compared, in masters; the first is the base of the ratios
 * @param clusterShards shards of the one topic on every cluster size
 * @param scaleOut sizes of the scale-out workload
 * @param tier sizes of the tiered-storage workload
 */
public record Sizes(
        int consumers,
        List<ScheduleLoad> scheduleLoads,
        int burstJobs,
        Duration burstLead,
        int sustainedJobs,
        Duration sustainedDelay,
        List<Integer> rates,
        Duration rateDuration,
        List<Integer> backlogs,
        int peerBacklogCap,
        int operationSamples,
        int backlogRate,
        Duration backlogRateDuration,
        int benchmarkRequests,
        int commandCountJobs,
        Duration commandCountDuration,
        Duration fixedRateLead,
        ScheduleLoad clusterLoad,
        List<Integer> clusterMasters,
        int clusterShards,
        ScaleOutSizes scaleOut,
        TierSizes tier) {

    /** Consumers everywhere: 16 handlers, as in the issue. */
    public static final int CONSUMERS = 16;

    /**
     * @param big also a 10M-job backlog
     * @return the sizes of the performance issue
     */
    public static Sizes full(boolean big) {
        List<ScheduleLoad> loads = List.of(
                new ScheduleLoad(20_000, 1, 1),
                new ScheduleLoad(100_000, 16, 1),
                new ScheduleLoad(100_000, 256, 1),
                new ScheduleLoad(100_000, 16, 4),
                new ScheduleLoad(100_000, 256, 4));
        return new Sizes(
                CONSUMERS,
                loads,
                50_000,
                Duration.ofSeconds(8),
                100_000,
                Duration.ofSeconds(1),
                List.of(1_000, 5_000),
                Duration.ofSeconds(60),
                big ? List.of(1_000_000, 10_000_000) : List.of(1_000_000),
                200_000,
                10_000,
                1_000,
                Duration.ofSeconds(20),
                200_000,
                10_000,
                Duration.ofSeconds(10),
                Duration.ofSeconds(1),
                new ScheduleLoad(100_000, 256, 4),
                List.of(1, 3),
                16,
                ScaleOutSizes.full(),
                TierSizes.full());
    }

    /** @return tiny sizes: every workload runs in seconds */
    public static Sizes smoke() {
        List<ScheduleLoad> loads = List.of(new ScheduleLoad(2_000, 64, 2));
        return new Sizes(
                CONSUMERS,
                loads,
                2_000,
                Duration.ofMillis(1000),
                2_000,
                Duration.ofSeconds(1),
                List.of(1_000, 5_000),
                Duration.ofSeconds(1),
                List.of(20_000),
                5_000,
                200,
                1_000,
                Duration.ofSeconds(1),
                20_000,
                1_000,
                Duration.ofSeconds(1),
                Duration.ofMillis(300),
                new ScheduleLoad(2_000, 64, 2),
                List.of(1, 3),
                4,
                ScaleOutSizes.smoke(),
                TierSizes.smoke());
    }

    /**
     * @param seconds new fixed-rate duration
     * @return a copy with that duration for the fixed rates
     */
    public Sizes withRateDuration(Duration seconds) {
        return copy(seconds, peerBacklogCap, scaleOut, tier);
    }

    /**
     * @param cap new cap
     * @return a copy with that cap on the peers' backlog
     */
    public Sizes withPeerBacklogCap(int cap) {
        return copy(rateDuration, cap, scaleOut, tier);
    }

    /**
     * @param sizes new sizes of the scale-out workload
     * @return a copy with those
     */
    public Sizes withScaleOut(ScaleOutSizes sizes) {
        return copy(rateDuration, peerBacklogCap, sizes, tier);
    }

    /**
     * @param sizes new sizes of the tiered-storage workload
     * @return a copy with those
     */
    public Sizes withTier(TierSizes sizes) {
        return copy(rateDuration, peerBacklogCap, scaleOut, sizes);
    }

    private Sizes copy(Duration newRateDuration, int newPeerBacklogCap, ScaleOutSizes newScaleOut, TierSizes newTier) {
        return new Sizes(
                consumers,
                scheduleLoads,
                burstJobs,
                burstLead,
                sustainedJobs,
                sustainedDelay,
                rates,
                newRateDuration,
                backlogs,
                newPeerBacklogCap,
                operationSamples,
                backlogRate,
                backlogRateDuration,
                benchmarkRequests,
                commandCountJobs,
                commandCountDuration,
                fixedRateLead,
                clusterLoad,
                clusterMasters,
                clusterShards,
                newScaleOut,
                newTier);
    }
}
