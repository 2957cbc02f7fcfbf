package io.hourglass.bench;

import java.time.Duration;
import java.util.List;

/**
 * Sizes of the scale-out workload: one topic on Redis Clusters of each size in {@code masters}, drained by each number
 * in {@code workers} of worker JVMs.
 *
 * @param masters cluster sizes, in masters; the first is the base of the masters' ratios
 * @param workers worker JVMs; the first is the base of the workers' ratios
 * @param concurrency handler slots of each worker JVM
 * @param jobs jobs of the burst, all due at one instant
 * @param shards shards of the topic on every cluster size
 * @param lead how far ahead the burst's due time is (scheduling must finish first)
 * @param warmUpJobs jobs of an untimed burst the same worker JVMs drain before the timed one, so that their JIT has
 *     compiled the claim path; 0 for none (the default: the worker JVMs meet the timed burst cold)
 */
public record ScaleOutSizes(
        List<Integer> masters,
        List<Integer> workers,
        int concurrency,
        int jobs,
        int shards,
        Duration lead,
        int warmUpJobs) {

    /** @return the performance issue's sizes: 1, 3 and 6 masters; 1, 2 and 4 workers of 32 slots; 200k jobs */
    public static ScaleOutSizes full() {
        return new ScaleOutSizes(List.of(1, 3, 6), List.of(1, 2, 4), 32, 200_000, 48, Duration.ofSeconds(10), 0);
    }

    /** @return tiny sizes for the smoke run */
    public static ScaleOutSizes smoke() {
        return new ScaleOutSizes(List.of(1, 3), List.of(1, 2), 4, 2_000, 4, Duration.ofMillis(1500), 0);
    }

    /**
     * @param masters new cluster sizes, or null to keep these
     * @param workers new worker counts, or null to keep these
     * @param concurrency new slots per worker, or null to keep these
     * @param jobs new burst size, or null to keep this one
     * @return a copy with the given values
     */
    public ScaleOutSizes with(List<Integer> masters, List<Integer> workers, Integer concurrency, Integer jobs) {
        return new ScaleOutSizes(
                masters != null ? List.copyOf(masters) : this.masters,
                workers != null ? List.copyOf(workers) : this.workers,
                concurrency != null ? concurrency : this.concurrency,
                jobs != null ? jobs : this.jobs,
                shards,
                jobs != null ? Duration.ofMillis(Math.max(lead.toMillis(), jobs / 20)) : lead,
                warmUpJobs);
    }

    /**
     * @param leadMs the new lead time in ms, or null to keep this one
     * @return a copy with the given lead time
     * @throws IllegalArgumentException if {@code leadMs} is not positive
     */
    public ScaleOutSizes withLead(Integer leadMs) {
        if (leadMs == null) {
            return this;
        }
        if (leadMs <= 0) {
            throw new IllegalArgumentException("--scaleout-lead-ms must be positive: " + leadMs);
        }
        return new ScaleOutSizes(masters, workers, concurrency, jobs, shards, Duration.ofMillis(leadMs), warmUpJobs);
    }

    /**
     * @param jobs jobs of the untimed warm-up burst, or null to keep this many
     * @return a copy with the given warm-up
     * @throws IllegalArgumentException if {@code jobs} is negative
     */
    public ScaleOutSizes withWarmUp(Integer jobs) {
        if (jobs == null) {
            return this;
        }
        if (jobs < 0) {
            throw new IllegalArgumentException("--scaleout-warm-up-jobs must not be negative: " + jobs);
        }
        return new ScaleOutSizes(masters, workers, concurrency, this.jobs, shards, lead, jobs);
    }
}
