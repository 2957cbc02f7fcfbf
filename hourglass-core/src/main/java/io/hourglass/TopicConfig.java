package io.hourglass;

/**
 * A topic's flow control, stored in Redis and shared by every process of the namespace: a rate limit (a token bucket on
 * Redis's clock) and a concurrency cap. Both count the deliveries of the whole topic, to in-process workers, pull
 * reservations and callback dispatchers alike. Set with {@link Inspector#configureTopic}, read with
 * {@link Inspector#topicConfig}; a change takes effect at each shard's next claim, and every worker is woken at once.
 *
 * <p>Each of the topic's S shards enforces its share (rate / S, burst / S, and the cap split as evenly as integers
 * allow), on its own keys inside the claim, so the limits need no key of another Redis Cluster slot; the shares add up
 * to the topic's limits. A shard with no ready job leaves its share unused, so a topic whose ready jobs sit in one
 * shard runs below its limits (ARCHITECTURE.md, "Flow control"). Immutable, thread-safe.
 *
 * @param ratePerSecond deliveries per second allowed on average; 0 for no rate limit; at most {@value #MAX_LIMIT}
 * @param burst how many deliveries may go at once after an idle time (the bucket's size); 0 with a rate limit for the
 *     default, one second's worth of deliveries and at least one per shard; must be 0 without a rate limit, and
 *     otherwise at least the namespace's shard count when configured; at most {@value #MAX_LIMIT}
 * @param maxConcurrency most jobs ACTIVE at once; 0 for no cap; at least the namespace's shard count when configured
 *     (each shard holds at least one place); at most {@value #MAX_LIMIT}. An expired lease frees its place.
 */
public record TopicConfig(double ratePerSecond, int burst, int maxConcurrency) {
    /** The largest rate, burst and cap accepted. */
    public static final int MAX_LIMIT = 1_000_000;

    /** No rate limit and no concurrency cap: what a topic has until it is configured. */
    public static final TopicConfig UNLIMITED = new TopicConfig(0, 0, 0);

    /**
     * @throws IllegalArgumentException naming the field when a value is negative, not finite, above
     *     {@value #MAX_LIMIT}, or a burst is given without a rate
     */
    public TopicConfig {
        if (!(ratePerSecond >= 0 && ratePerSecond <= MAX_LIMIT)) {
            throw new IllegalArgumentException(
                    "ratePerSecond: must be 0 (no limit) to " + MAX_LIMIT + ", got " + ratePerSecond);
        }
        if (burst < 0 || burst > MAX_LIMIT) {
            throw new IllegalArgumentException("burst: must be 0 (default) to " + MAX_LIMIT + ", got " + burst);
        }
        if (burst > 0 && ratePerSecond == 0) {
            throw new IllegalArgumentException("burst: needs a ratePerSecond above 0, got burst " + burst);
        }
        if (maxConcurrency < 0 || maxConcurrency > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "maxConcurrency: must be 0 (no cap) to " + MAX_LIMIT + ", got " + maxConcurrency);
        }
    }

    /**
     * @param ratePerSecond deliveries per second; 0 for none
     * @param burst the bucket's size; 0 for the default
     * @return this configuration with that rate limit
     * @throws IllegalArgumentException as the constructor
     */
    public TopicConfig withRateLimit(double ratePerSecond, int burst) {
        return new TopicConfig(ratePerSecond, burst, maxConcurrency);
    }

    /**
     * @param maxConcurrency most jobs ACTIVE at once; 0 for no cap
     * @return this configuration with that concurrency cap
     * @throws IllegalArgumentException as the constructor
     */
    public TopicConfig withMaxConcurrency(int maxConcurrency) {
        return new TopicConfig(ratePerSecond, burst, maxConcurrency);
    }

    /** @return whether deliveries are limited per second */
    public boolean limitsRate() {
        return ratePerSecond > 0;
    }

    /** @return whether the jobs ACTIVE at once are capped */
    public boolean capsConcurrency() {
        return maxConcurrency > 0;
    }
}
