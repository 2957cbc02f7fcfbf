package io.hourglass;

import java.time.Instant;

/**
 * How many jobs of a topic finished in one minute, as {@link Inspector#history} returns it, summed over the topic's
 * shards. Counted by the scripts that make the transitions, so a count survives the death of the process that caused
 * it.
 *
 * @param minute the start of the minute, by the Redis server's clock; never null
 * @param processed jobs acked in that minute
 * @param failed attempts that failed in that minute: nacked, or their lease expired (whether or not the job then went
 *     to the dead letters)
 */
public record HistoryMinute(Instant minute, long processed, long failed) {}
