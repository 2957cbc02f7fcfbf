package io.hourglass.bench;

import java.time.Duration;

/**
 * Sizes of the tiered-storage workload: jobs due over a year scheduled into a namespace with a cold tier, a block of
 * jobs the feeder moves at once, and fed against direct jobs at a fixed rate.
 *
 * @param jobs jobs scheduled over a year with {@code scheduleAll}, generated ids
 * @param perJobSample jobs scheduled one per call, for the rate without the batch path
 * @param callersIdSample jobs scheduled with {@code scheduleAll} and ids of the caller's (each checked against Redis)
 * @param batch jobs per {@code scheduleAll} call
 * @param producers producer threads
 * @param block jobs that come within the feeder's reach together
 * @param latenessRate fed jobs due per second, and as many direct ones
 * @param latenessDuration how long jobs come due at that rate
 */
public record TierSizes(
        int jobs,
        int perJobSample,
        int callersIdSample,
        int batch,
        int producers,
        int block,
        int latenessRate,
        Duration latenessDuration) {

    /** @return 1M jobs over a year, a block of 100k, fed and direct jobs at 1,000/s each for 60 s */
    public static TierSizes full() {
        return new TierSizes(1_000_000, 20_000, 20_000, 1_000, 4, 100_000, 1_000, Duration.ofSeconds(60));
    }

    /** @return tiny sizes for the smoke run */
    public static TierSizes smoke() {
        return new TierSizes(5_000, 100, 200, 500, 2, 1_000, 200, Duration.ofSeconds(1));
    }

    /**
     * @param newJobs jobs over a year, or null to keep these
     * @return a copy with that many
     */
    public TierSizes withJobs(Integer newJobs) {
        if (newJobs == null) {
            return this;
        }
        if (newJobs < 1) {
            throw new IllegalArgumentException("tier jobs: must be positive, got " + newJobs);
        }
        return new TierSizes(
                newJobs, perJobSample, callersIdSample, batch, producers, block, latenessRate, latenessDuration);
    }
}
