package io.hourglass.bench.systems;

import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.scaleout.WorkerProcess;
import java.time.Duration;
import java.util.List;

/**
 * A system whose worker can run in a process of its own, apart from its producer, so that the worker's CPU time is
 * measured alone (the client-CPU workload). The worker subscribes to the topic the producer methods schedule into.
 */
public interface SeparateWorker {

    /**
     * Starts a fresh worker process on the server, which records each delivery's lateness.
     *
     * @param redis the server
     * @param consumers concurrent handlers
     * @param jvmOptions options for a JVM worker's {@code java} command; empty for none; ignored by other runtimes
     * @return the process; call {@link WorkerProcess#awaitReady} before producing
     */
    WorkerProcess startWorker(FreshRedis redis, int consumers, List<String> jvmOptions);

    /**
     * Schedules {@code jobs} jobs each due {@code delay} after it is scheduled, as fast as possible (256 in flight), as
     * the end-to-end workload's sustained run does; returns when every one is scheduled.
     *
     * @param redis the server
     * @param jobs how many
     * @param delay the delay of each job
     * @throws Exception when the system fails
     */
    void produceSustained(FreshRedis redis, int jobs, Duration delay) throws Exception;

    /**
     * Schedules jobs that come due at a steady rate, each {@code lead} before its due time, as the fixed-rate workload
     * does ({@link FixedRatePlan}); returns when every one is scheduled.
     *
     * @param redis the server
     * @param perSecond jobs due per second
     * @param duration for how long
     * @param lead how long before its due time each job is scheduled
     * @return the number of jobs scheduled
     * @throws Exception when the system fails
     */
    int producePaced(FreshRedis redis, int perSecond, Duration duration, Duration lead) throws Exception;
}
