package io.hourglass;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A durable store outside Redis for jobs due far ahead, so that Redis holds only the near future
 * ({@link HourglassBuilder#coldTier(ColdTier, Duration)}). The core decides which tier a job goes to and keeps the API
 * the same across both; the tier stores jobs by topic and id and moves them into Redis before they come within the
 * horizon (its feeder), through the {@link Mover} the core hands it at {@link #start}. The module
 * {@code hourglass-tier-jdbc} provides one on PostgreSQL.
 *
 * <p>A stored job is a {@link JobRequest} with its id, its due instant ({@link JobRequest#runAt()}) and every option
 * resolved ({@code maxAttempts}, {@code backoff}, {@code lease}, {@code idempotencyWindow}), so that it is scheduled
 * into Redis exactly as it was asked for, whichever process moves it.
 *
 * <p>Implementations are thread-safe. Methods that reach the store throw {@link ColdTierUnavailableException} when it
 * cannot be reached; then nothing was changed, except where a method says otherwise.
 */
public interface ColdTier {

    /** @return the namespace whose jobs this tier holds; the instance it is given to must use the same one */
    String namespace();

    /**
     * Called once by {@link HourglassBuilder#build()}: from now on the tier may move jobs into Redis through
     * {@code mover}, e.g. on a feeder thread of its own.
     *
     * @param horizon jobs due within this much of now belong in Redis; positive
     * @param mover schedules a job straight into Redis; not null
     */
    void start(Duration horizon, Mover mover);

    /** Called once by {@link Hourglass#close()}: stops using the mover (a feeder waits for its batch to end). */
    void stop();

    /**
     * Stores a job due beyond the horizon, durable once this returns. Honours {@link JobRequest#onConflict()} against
     * the jobs of this tier only: {@link OnConflict#REJECT} throws, {@link OnConflict#KEEP} reports the stored job,
     * {@link OnConflict#REPLACE} overwrites it.
     *
     * @param job the job, with id and {@link JobRequest#runAt()} set; not null
     * @return {@code CREATED}, {@code REPLACED}, or {@code KEPT} with the stored job's due time; state
     *     {@code SCHEDULED}
     * @throws JobAlreadyExistsException when the id is stored already and {@code job} rejects conflicts
     * @throws ColdTierUnavailableException when the store cannot be reached
     */
    ScheduleResult store(JobRequest job);

    /**
     * Stores several jobs due beyond the horizon, each as {@link #store} would, one after another in list order; an
     * implementation may write them with fewer statements (this default calls {@link #store} for each). Durable once
     * this returns.
     *
     * @param jobs the jobs, each with id and {@link JobRequest#runAt()} set; not null, no null element
     * @return one outcome per job, in the order of {@code jobs}, each already complete: with what {@link #store}
     *     returns, or exceptionally with what it throws ({@link JobAlreadyExistsException},
     *     {@link ColdTierUnavailableException} for a job that was not stored, {@link IllegalArgumentException})
     */
    default List<CompletableFuture<ScheduleResult>> storeAll(List<JobRequest> jobs) {
        List<CompletableFuture<ScheduleResult>> outcomes = new ArrayList<>(jobs.size());
        for (JobRequest job : jobs) {
            try {
                outcomes.add(CompletableFuture.completedFuture(store(job)));
            } catch (RuntimeException e) {
                outcomes.add(CompletableFuture.failedFuture(e));
            }
        }
        return outcomes;
    }

    /**
     * @param topic the job's topic
     * @param id the job's id
     * @return the stored job, or empty when this tier does not hold it
     * @throws ColdTierUnavailableException when the store cannot be reached
     */
    Optional<JobRequest> find(String topic, String id);

    /**
     * Deletes a stored job; waits for a move of it in progress to end (after which it is no longer stored here).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @return true if a job was deleted
     * @throws ColdTierUnavailableException when the store cannot be reached
     */
    boolean delete(String topic, String id);

    /**
     * Moves a stored job's due time, when it is still stored here (a move in progress is waited for).
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param dueAt the new due instant; not null
     * @return true if the job was stored here and now has the new due time
     * @throws ColdTierUnavailableException when the store cannot be reached
     */
    boolean reschedule(String topic, String id, Instant dueAt);

    /**
     * Takes one stored job out: locks it (other moves skip it, deletes and reschedules of it wait), hands it to
     * {@code into} (which puts it into Redis), and deletes it once {@code into} returned; when {@code into} throws, the
     * job stays stored and the exception is rethrown.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param into puts the job elsewhere; its result is returned
     * @param <T> what {@code into} returns
     * @return what {@code into} returned, or empty when this tier does not hold the job
     * @throws ColdTierUnavailableException when the store cannot be reached
     */
    <T> Optional<T> moveOut(String topic, String id, Function<JobRequest, T> into);

    /** How a tier puts jobs into Redis: the core's producer path, without the routing to the cold tier. */
    @FunctionalInterface
    interface Mover {
        /**
         * Schedules the job into Redis whatever its due time, honouring its {@link JobRequest#onConflict()} as
         * {@link Hourglass#schedule(JobRequest)} does (an id that exists or is reserved is a conflict).
         *
         * @param job the job; not null
         * @return completes with the result, or exceptionally with {@link JobAlreadyExistsException},
         *     {@link RedisUnavailableException} or {@link IllegalArgumentException} (a job this instance refuses)
         * @throws IllegalArgumentException naming the field when this instance refuses the job
         */
        CompletableFuture<ScheduleResult> schedule(JobRequest job);
    }
}
