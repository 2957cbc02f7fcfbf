package io.hourglass;

/**
 * How many jobs of one topic are in each state, summed over its shards. Due jobs that no worker has promoted
 * yet count as {@code ready}. Each count is read with O(log N) cost.
 *
 * @param topic the topic's name; never null
 * @param scheduled jobs waiting for their due time
 * @param ready due jobs waiting for a worker
 * @param active jobs leased to a worker
 * @param dead dead letters
 */
public record TopicStats(String topic, long scheduled, long ready, long active, long dead) {}
