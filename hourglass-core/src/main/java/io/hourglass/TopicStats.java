package io.hourglass;

/**
 * How many jobs of one topic are in each state, summed over its shards. A job counts as {@code ready} from its due time
 * on (by the Redis server's clock), whether or not a worker has looked at it since. Each count is read with O(log N)
 * cost.
 *
 * @param topic the topic's name; never null
 * @param scheduled jobs waiting for their due time
 * @param ready due jobs waiting for a worker
 * @param active jobs leased to a worker
 * @param dead dead letters
 */
public record TopicStats(String topic, long scheduled, long ready, long active, long dead) {}
