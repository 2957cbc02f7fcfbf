package io.hourglass.bench.systems;

import io.hourglass.bench.SystemName;
import io.hourglass.bench.redis.FreshRedis;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A delay queue driven through the benchmark's workloads. Each call connects to the given (fresh) Redis, runs one
 * workload step with its own producers and consumers, and disconnects. Lateness is always handler start minus due time,
 * with a handler that acks at once.
 */
public interface QueueSystem {

    /** @return who this is */
    SystemName name();

    /**
     * Schedules jobs due an hour ahead as fast as possible, after a short untimed warm-up.
     *
     * @param redis the server
     * @param load how many jobs, from how many threads, with how many calls in flight per thread
     * @return the seconds the timed jobs took, from the first call to the last reply
     * @throws Exception when the system fails
     */
    double scheduleSeconds(FreshRedis redis, ScheduleLoad load) throws Exception;

    /**
     * Schedules {@code jobs} all due at one instant {@code lead} ahead, consumed by {@code consumers} handlers; the
     * drain time runs from the due instant to the last handler.
     *
     * @param redis the server
     * @param jobs how many
     * @param consumers concurrent handlers
     * @param lead how far ahead the common due time is
     * @return what was delivered and how late
     * @throws Exception when the system fails
     */
    DrainResult burst(FreshRedis redis, int jobs, int consumers, Duration lead) throws Exception;

    /**
     * Schedules {@code jobs} each due {@code delay} after it is scheduled, as fast as possible, while {@code consumers}
     * handlers consume; the drain time runs from the first schedule call to the last handler.
     *
     * @param redis the server
     * @param jobs how many
     * @param delay the delay of each job
     * @param consumers concurrent handlers
     * @return what was delivered and how late
     * @throws Exception when the system fails
     */
    DrainResult sustained(FreshRedis redis, int jobs, Duration delay, int consumers) throws Exception;

    /**
     * Makes jobs come due at a steady rate, each scheduled {@code lead} before its due time.
     *
     * @param redis the server
     * @param perSecond jobs due per second
     * @param duration for how long
     * @param consumers concurrent handlers
     * @param lead how long before its due time each job is scheduled
     * @return what was delivered and how late
     * @throws Exception when the system fails
     */
    DrainResult fixedRate(FreshRedis redis, int perSecond, Duration duration, int consumers, Duration lead)
            throws Exception;

    /**
     * Schedules a backlog of jobs due a day or more ahead, with payloads of {@code payloadBytes} bytes and the ids
     * {@code ids} names.
     *
     * @param redis the server
     * @param jobs how many
     * @param payloadBytes payload size
     * @param ids whose ids the jobs carry
     * @throws Exception when the system fails
     */
    void fillBacklog(FreshRedis redis, int jobs, int payloadBytes, BacklogIds.Source ids) throws Exception;

    /**
     * Times {@code get}, {@code cancel} and {@code reschedule} of single backlog jobs, one call at a time.
     *
     * @param redis the server, holding a backlog from {@link #fillBacklog}
     * @param jobs the backlog's size
     * @param samples calls per operation
     * @return latency histograms in microseconds by operation name; an operation the system lacks is absent
     * @throws Exception when the system fails
     */
    Map<String, Histogram> backlogOperations(FreshRedis redis, int jobs, int samples) throws Exception;
}
