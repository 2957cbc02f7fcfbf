package io.hourglass;

import java.time.Duration;
import java.time.Instant;

/**
 * An operator's view of one topic, as {@link Inspector#topic(String)} reads it: counts per state, whether the topic is
 * paused, how late its ready jobs are and when its next job falls due. Summed over the topic's shards; each shard is
 * read with O(log N) cost in one script call, so the shards' parts are each consistent but may be a few milliseconds
 * apart.
 *
 * @param topic the topic's name; never null
 * @param scheduled jobs waiting for their due time
 * @param ready due jobs waiting for a worker (a job counts as ready from its due time on, by the Redis server's clock)
 * @param active jobs leased to a worker
 * @param dead dead letters
 * @param paused true when the topic is paused ({@link Inspector#pause}), on any of its shards
 * @param latency the age of the oldest READY job (the server's now minus its due time); {@link Duration#ZERO} when no
 *     job is ready; never null
 * @param nextDueAt the due time of the earliest SCHEDULED job, or null when none is scheduled
 * @param deadLettersTrimmed dead letters deleted so far because the topic's dead letters exceeded their count or age
 *     limits ({@link HourglassBuilder#deadLetterLimits(String, int, Duration)}); a total kept in Redis, never reset
 * @param completed acked jobs still retained as {@code COMPLETED} ({@link HourglassBuilder#completedRetention(String,
 *     Duration)}); exact at the time of the read: a job whose retention ended is not counted, whether or not its entry
 *     was deleted yet
 */
public record TopicOverview(
        String topic,
        long scheduled,
        long ready,
        long active,
        long dead,
        boolean paused,
        Duration latency,
        Instant nextDueAt,
        long deadLettersTrimmed,
        long completed) {}
