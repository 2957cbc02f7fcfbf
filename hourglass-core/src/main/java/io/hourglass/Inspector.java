package io.hourglass;

import java.util.Collection;
import java.util.List;

/**
 * Reads and operator actions over a namespace's topics, for dashboards, admin endpoints and command-line tools; reached
 * through {@link Hourglass#inspector()}. Thread-safe; it shares its {@link Hourglass}'s connections and is unusable
 * once that is closed.
 *
 * <p>Every read and every action is made of one atomic Lua script per shard, run over all of the topic's shards. Reads
 * cost O(log N) per shard at any backlog (a page of jobs O(log N + page size)), never a scan. Bulk actions work in
 * bounded chunks ({@link #CHUNK} jobs a script call) so that no call holds Redis for long, and loop until done; other
 * clients' commands run between the chunks, so a bulk action is atomic per chunk, not as a whole. Each action keeps the
 * state machine's invariants: a job is in exactly one state, and a receipt stays valid only for the delivery in
 * progress.
 *
 * <p>Every method throws {@link IllegalArgumentException} naming the bad field (topic, state, cursor, limit, id, ids),
 * with nothing changed, on bad input, and {@link RedisUnavailableException} when Redis cannot be reached.
 */
public interface Inspector {
    /** Bytes of payload a {@link JobSummary} previews. */
    int PREVIEW_BYTES = 256;
    /** Most jobs one script call of a bulk action touches per shard (and lane). */
    int CHUNK = 500;
    /** Most jobs one page of {@link #jobs} holds. */
    int MAX_PAGE = 1000;

    /**
     * Overviews of every topic this namespace has seen (topics are registered on first use).
     *
     * @return one entry per topic, sorted by name; never null
     */
    List<TopicOverview> topics();

    /**
     * The overview of one topic: counts per state, paused or not, latency and next due time.
     *
     * @param topic the topic
     * @return the overview (all counts zero for a topic never used); never null
     */
    TopicOverview topic(String topic);

    /**
     * One page of a topic's jobs in one state, ordered by due time (by lease deadline for {@code ACTIVE}, by time of
     * death for {@code DEAD}, by the end of their retention for {@code COMPLETED}, which is completion order among jobs
     * retained equally long), ties by id. {@code COMPLETED} lists the retained completed jobs whose retention has not
     * ended. The shards' pages are merged, so the order holds across shards; paging through a topic that does not
     * change meanwhile yields every job once. Jobs that change state between pages may be missed or seen twice, as with
     * any cursor over live data. Costs O(log N + limit) per shard.
     *
     * @param topic the topic
     * @param state the state to list; not null; any of the five
     * @param cursor null for the first page, else a {@link JobPage#nextCursor} of the same topic and state
     * @param limit most jobs in the page, 1 to {@link #MAX_PAGE}
     * @return the page; never null
     */
    JobPage jobs(String topic, JobState state, String cursor, int limit);

    /**
     * A topic's jobs processed and failed per minute over the last 24 hours, by the Redis server's clock, summed over
     * its shards. Redis keeps at most 1,440 minutes per counter and shard; older minutes are deleted as new ones begin.
     *
     * @param topic the topic
     * @return the minutes that have a count, oldest first; never null (empty for a topic with no finished job)
     */
    List<HistoryMinute> history(String topic);

    /**
     * How many of a topic's jobs expired before they were delivered ({@link JobRequest.Builder#expiresAt},
     * {@link JobRequest.Builder#ttl}), dead-lettered or dropped, since the first, summed over its shards. Each also
     * counts as failed in its minute of the {@link #history(String) history}. A job counts when a claim meets it after
     * its expiry: one that expired while nothing claimed its topic (no worker, or the topic paused) counts then.
     *
     * @param topic the topic
     * @return the count, 0 or more (0 for a topic never used)
     * @throws IllegalArgumentException naming {@code topic} when it is malformed
     */
    long expired(String topic);

    /**
     * Pauses a topic: from the next claim of each of its shards on, no worker, callback dispatcher or pull reservation
     * of any process is given its jobs (a running worker notices at its next claim, at the latest within its sweep
     * interval). Deliveries in progress go on and may be acked or nacked; expired leases are still reaped; scheduling
     * is still accepted. The pause is kept in Redis, so it outlives every process. Idempotent.
     *
     * @param topic the topic
     */
    void pause(String topic);

    /**
     * Resumes a paused topic and wakes its workers in every process, so they claim its ready jobs at once. Idempotent.
     *
     * @param topic the topic
     */
    void resume(String topic);

    /**
     * The topic's flow control as stored in Redis (read from its first shard).
     *
     * @param topic the topic
     * @return the configuration; {@link TopicConfig#UNLIMITED} when none was set; never null
     */
    TopicConfig topicConfig(String topic);

    /**
     * Stores the topic's flow control on every shard of the topic and wakes its workers in every process, so that the
     * new limits hold from each shard's next claim on. Deliveries already in progress are not ended by a lower cap. The
     * default burst is resolved here and stored, so {@link #topicConfig} shows the burst in force.
     *
     * @param topic the topic
     * @param config the limits; not null; {@link TopicConfig#UNLIMITED} removes them
     * @throws IllegalArgumentException when the topic is not a valid name, the config is null, or a burst or a cap
     *     (above 0) is below the namespace's shard count
     */
    void configureTopic(String topic, TopicConfig config);

    /**
     * Makes a SCHEDULED job due now, by the Redis server's clock, and wakes the workers. A READY job is left as it is;
     * an ACTIVE or DEAD job is refused.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return what was done; never null
     */
    RunNowOutcome runNow(String topic, String id);

    /**
     * Puts every dead letter of a topic back to READY with its attempts reset, as {@link Hourglass#requeueDead}.
     *
     * @param topic the topic
     * @return how many were requeued
     */
    long requeueAllDead(String topic);

    /**
     * Puts the given dead letters back to READY with their attempts reset; ids that are not dead letters of the topic
     * are skipped.
     *
     * @param topic the topic
     * @param ids the jobs' ids; not null or empty, no null element
     * @return how many were requeued
     */
    long requeueDead(String topic, Collection<String> ids);

    /**
     * Deletes every dead letter of a topic.
     *
     * @param topic the topic
     * @return how many were deleted
     */
    long deleteAllDead(String topic);

    /**
     * Deletes the given dead letters; ids that are not dead letters of the topic are skipped.
     *
     * @param topic the topic
     * @param ids the jobs' ids; not null or empty, no null element
     * @return how many were deleted
     */
    long deleteDead(String topic, Collection<String> ids);

    /**
     * Deletes a topic's jobs in one state. Purging {@code ACTIVE} ends the deliveries in progress: a later ack, nack or
     * extend with their receipts is refused with {@link StaleReceiptException}. Jobs that enter the state while the
     * purge runs may be purged too.
     *
     * @param topic the topic
     * @param state the state to purge; not null
     * @return how many jobs were deleted
     */
    long purge(String topic, JobState state);
}
