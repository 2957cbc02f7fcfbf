package io.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A distributed delay queue on Redis: "run this job at time T, at least once, on one of my workers". The single entry
 * point of Hourglass; create one per application with {@link #builder()} and share it (it is thread-safe), close it on
 * shutdown.
 *
 * <pre>{@code
 * try (Hourglass hourglass = Hourglass.builder().redisUri("redis://localhost:6379").build()) {
 *   hourglass.subscribe("order-timeout", job -> orders.closeIfUnpaid(job.payloadAsString()));
 *   hourglass.schedule(JobRequest.builder("order-timeout").id("order-42").payload("42")
 *       .delay(Duration.ofMinutes(10)).build());
 * }
 * }</pre>
 *
 * <p>Guarantees (the invariants in ARCHITECTURE.md): every state change is one Lua script on one shard; whether a job
 * is due is decided by the Redis server's clock, and no job reaches a worker before its due time; a job is delivered
 * until it is acked, dead-lettered or cancelled; ack, nack and extend are fenced by the delivery's receipt; lookups,
 * cancels and reschedules by id cost O(log N) at any backlog.
 *
 * <p>Methods that talk to Redis throw {@link RedisUnavailableException} when it cannot be reached, and
 * {@link IllegalArgumentException} naming the bad field, with nothing changed, on bad input.
 */
public interface Hourglass extends AutoCloseable {

    /** @return a builder with the defaults ({@code DEFAULT_*} constants of {@link HourglassBuilder}) */
    static HourglassBuilder builder() {
        return new HourglassBuilder();
    }

    /** @return the namespace that isolates this instance's keys from other applications on the same Redis */
    String namespace();

    /** @return into how many shards (hash tags) each topic is spread */
    int shards();

    /** @return what the builder decided for this instance; never null */
    HourglassSettings settings();

    /**
     * Schedules a job. One Redis round trip (two the first time a topic is used by this instance).
     *
     * @param request the job; not null
     * @return what was done: the id (generated if none was given), state and due time
     * @throws JobAlreadyExistsException when the id exists and {@link OnConflict#REJECT} was asked
     * @throws IllegalArgumentException naming the field, when the payload or delay exceeds this instance's limits
     * @throws ColdTierUnavailableException when the job is due beyond the horizon of this instance's cold tier
     *     ({@link HourglassBuilder#coldTier}) and the cold tier cannot be reached
     */
    ScheduleResult schedule(JobRequest request);

    /**
     * Schedules a job without blocking; see {@link #schedule(JobRequest)}.
     *
     * @param request the job; not null
     * @return completes with the result, or exceptionally as {@link #schedule(JobRequest)} throws
     */
    CompletableFuture<ScheduleResult> scheduleAsync(JobRequest request);

    /**
     * Schedules several jobs without blocking on Redis, each as {@link #scheduleAsync(JobRequest)} would, one after
     * another in list order. With a cold tier ({@link HourglassBuilder#coldTier}) the jobs due beyond its horizon are
     * written to it together, with a statement per up to 1,000 jobs instead of one each, and this call blocks until
     * they are stored; without one it costs what the calls one by one cost. A request that
     * {@link #scheduleAsync(JobRequest)} refuses by throwing gets a failed outcome, and the others are still scheduled.
     *
     * @param requests the jobs; not null, no null element
     * @return one outcome per request, in the order of {@code requests}: completes with the result, or exceptionally as
     *     {@link #schedule(JobRequest)} throws
     * @throws NullPointerException when {@code requests} or one of its elements is null; then nothing was scheduled
     */
    default List<CompletableFuture<ScheduleResult>> scheduleAll(List<JobRequest> requests) {
        List<JobRequest> all = List.copyOf(requests);
        List<CompletableFuture<ScheduleResult>> outcomes = new ArrayList<>(all.size());
        for (JobRequest request : all) {
            try {
                outcomes.add(scheduleAsync(request));
            } catch (RuntimeException e) {
                outcomes.add(CompletableFuture.failedFuture(e));
            }
        }
        return outcomes;
    }

    /**
     * Reads a job. O(1) in Redis.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return the job, or empty when there is none (never scheduled, acked or cancelled)
     * @throws ColdTierUnavailableException when the job is not in Redis and the cold tier, if configured, cannot be
     *     reached
     */
    Optional<JobInfo> get(String topic, String id);

    /**
     * Removes a job that is not finished, in any state (a delivery in progress loses its receipt). O(log N).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return true if a job was removed, false if there was none
     * @throws ColdTierUnavailableException when the job is not in Redis and the cold tier, if configured, cannot be
     *     reached
     */
    boolean cancel(String topic, String id);

    /**
     * Moves a job to a new due time. An {@code ACTIVE} job is taken back from its worker (its receipt is voided and the
     * attempt is not charged). O(log N).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param runAt the new due instant; in the past means due now
     * @return the new state and due time, or empty when there is no such job
     * @throws HourglassException when the job is {@code DEAD} (use {@link #requeueDead})
     * @throws ColdTierUnavailableException when a cold tier is configured, cannot be reached and would be needed: the
     *     new due time is beyond its horizon, or the job is not in Redis
     */
    Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt);

    /**
     * Moves a job to be due {@code delay} from now by Redis's clock; see {@link #reschedule(String, String, Instant)}.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param delay zero or positive
     * @return the new state and due time, or empty when there is no such job
     */
    Optional<ScheduleResult> reschedule(String topic, String id, Duration delay);

    /**
     * Starts a worker that runs {@code handler} for the topic's due jobs, with {@link WorkerOptions#defaults()}.
     *
     * @param topic the topic to consume
     * @param handler runs each job; return acks, throw nacks
     * @return the running worker; close it (or this instance) to stop it gracefully
     */
    default Worker subscribe(String topic, JobHandler handler) {
        return subscribe(topic, handler, WorkerOptions.defaults());
    }

    /**
     * Starts a worker that runs {@code handler} for the topic's due jobs. It claims in batches no larger than its free
     * handler slots, so nothing waits in a local buffer (invariant 9); it wakes at the next due time, on a signal when
     * an earlier job is scheduled, and on a backstop sweep.
     *
     * @param topic the topic to consume
     * @param handler runs each job; return acks, throw nacks
     * @param options concurrency, timeouts
     * @return the running worker
     */
    Worker subscribe(String topic, JobHandler handler, WorkerOptions options);

    /**
     * Claims up to {@code max} due jobs of the topic for a pull worker (as the HTTP API's reservations do), without
     * waiting.
     *
     * @param topic the topic
     * @param max 1 to 1000
     * @param lease the lease of these deliveries, or null for each job's own
     * @return the deliveries, possibly none
     */
    List<Delivery> reserve(String topic, int max, Duration lease);

    /**
     * Claims up to {@code max} due jobs, waiting up to {@code wait} for one to come due (long polling). Completes as
     * soon as at least one job is claimed, or with an empty list when the wait ends.
     *
     * @param topic the topic
     * @param max 1 to 1000
     * @param lease the lease of these deliveries, or null for each job's own
     * @param wait zero to 5 minutes
     * @return completes with the deliveries
     */
    CompletableFuture<List<Delivery>> reserveAsync(String topic, int max, Duration lease, Duration wait);

    /**
     * Acknowledges a delivery: the job is done and deleted.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the delivery's receipt
     * @throws StaleReceiptException when the receipt is not the job's current delivery
     */
    void ack(String topic, String id, String receipt);

    /** Largest result an ack may carry: 16 KiB. */
    int MAX_RESULT_BYTES = 16 * 1024;

    /**
     * Acknowledges a delivery with the job's result: the job is done, and when its topic keeps completed jobs
     * ({@link HourglassBuilder#completedRetention(String, Duration)}) it stays readable by {@link #get} as
     * {@code COMPLETED} with this result until its retention ends; otherwise it is deleted and the result dropped.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the delivery's receipt
     * @param result the job's result, at most {@link #MAX_RESULT_BYTES} bytes; null for none
     * @throws StaleReceiptException when the receipt is not the job's current delivery
     * @throws IllegalArgumentException naming {@code result} when it is too long
     */
    void ack(String topic, String id, String receipt, byte[] result);

    /**
     * Reports a failed delivery: the job is retried after {@code retryDelay} (or its backoff), or goes to the dead
     * letters when its attempts are exhausted.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the delivery's receipt
     * @param error the error to keep as the job's last error, or null
     * @param retryDelay the delay before the retry, or null for the job's backoff
     * @return the job's new state: {@code SCHEDULED}, {@code READY} or {@code DEAD}
     * @throws StaleReceiptException when the receipt is not the job's current delivery
     */
    JobState nack(String topic, String id, String receipt, String error, Duration retryDelay);

    /**
     * Sends a delivery's job to the dead letters at once, whatever attempts it has left, with {@code error} as its last
     * error: for a pull worker (or the HTTP API) that knows no retry can succeed, as a handler does by throwing a
     * {@link NonRetryableException}. The attempt counts as failed. Logged at WARN (rate-limited per topic).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the delivery's receipt
     * @param error the error to keep as the job's last error, or null to keep the previous one
     * @return {@code DEAD}
     * @throws StaleReceiptException when the receipt is not the job's current delivery
     */
    JobState deadLetter(String topic, String id, String receipt, String error);

    /**
     * Extends a delivery's lease to {@code lease} from now.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param receipt the delivery's receipt
     * @param lease 1 ms to 24 h
     * @return the new lease deadline
     * @throws StaleReceiptException when the receipt is not the job's current delivery
     */
    Instant extend(String topic, String id, String receipt, Duration lease);

    /**
     * Whether any job was ever scheduled into the topic in this namespace (topics are registered on first use). O(1).
     *
     * @param topic the topic
     * @return true if the topic is known
     */
    boolean topicExists(String topic);

    /**
     * Per-state counts of every topic this namespace has seen.
     *
     * @return one entry per topic, sorted by name
     */
    List<TopicStats> topics();

    /**
     * Per-state counts of one topic.
     *
     * @param topic the topic
     * @return the counts (all zero for a topic never used)
     */
    TopicStats stats(String topic);

    /**
     * Lists a topic's dead letters, oldest death first.
     *
     * @param topic the topic
     * @param offset how many to skip, zero or positive
     * @param limit how many at most, 1 to 1000
     * @return the dead jobs with their last errors
     */
    List<JobInfo> deadLetters(String topic, int offset, int limit);

    /**
     * Puts a dead letter back to {@code READY} with its attempts reset.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return true if it was requeued, false if there is no such job
     * @throws HourglassException when the job exists but is not {@code DEAD}
     */
    boolean requeueDead(String topic, String id);

    /**
     * Deletes a dead letter.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return true if it was deleted, false if there is no such dead job
     */
    boolean deleteDead(String topic, String id);

    /**
     * The namespace's recurring schedules: named cron expressions whose ticks become ordinary jobs, exactly one per
     * tick whatever the number of processes. This instance fires ticks only when its ticker runs
     * ({@link HourglassBuilder#scheduleTicker(boolean)}, on by default).
     *
     * @return the schedules; shares this instance's connections; thread-safe, never null
     */
    Schedules schedules();

    /**
     * The operator's view of this instance's namespace: per-topic overviews, paged job listings, per-minute history,
     * pause and resume, run now, bulk dead-letter and purge actions.
     *
     * @return an inspector that shares this instance's connections; thread-safe, never null
     */
    Inspector inspector();

    /**
     * Starts delivering this namespace's callback jobs (those with a {@code callbackUrl}) by HTTP POST, on every topic,
     * including topics first used later. Call it in one or more processes; they share the work.
     *
     * @param options concurrency and timeouts
     * @return a handle whose {@code close()} stops the delivery gracefully
     */
    Worker startCallbackDelivery(CallbackOptions options);

    /**
     * Stops every worker of this instance gracefully (each within its {@link WorkerOptions#shutdownGrace()}), then
     * closes the Redis connections, waiting at most 5 s for each connection and for the client's shutdown, which
     * Lettuce itself does not bound; past that it logs a warning and returns. Idempotent.
     */
    @Override
    void close();
}
