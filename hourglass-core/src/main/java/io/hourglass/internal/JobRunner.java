package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.HandlerThreads;
import io.hourglass.JobEvents;
import io.hourglass.JobHandler;
import io.hourglass.NonRetryableException;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a worker's claimed jobs on its handler threads and ends each delivery exactly once: ack when the handler
 * returns, nack with the job's backoff when it throws or times out (dead at once for a {@link NonRetryableException}),
 * hand-back when the worker closes first; {@link DeliveryWrites} sends these writes and retries them. Each failure is
 * logged ({@link FailureLog}). With {@link WorkerOptions#autoExtendLease()} (always for callbacks) a
 * {@link LeaseKeeper} extends a running handler's lease until the delivery ends. Thread-safe.
 */
final class JobRunner {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

    private final JobHandler handler;
    private final Duration handlerTimeout;
    private final JobEvents events;
    private final ScheduledExecutorService timer;
    private final ExecutorService executor;
    private final ServerClock clock;
    private final FailureLog failures;
    private final DeliveryWrites writes;
    /** Null unless the worker keeps its handlers' leases ({@link WorkerOptions#autoExtendLease()}). */
    private final LeaseKeeper leaseKeeper;

    private final System.Logger.Level failureLogLevel;
    private final boolean logStackTraces;
    private final Set<JobContext> running = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    JobRunner(
            ClientContext context,
            Leases leases,
            JobHandler handler,
            WorkerOptions options,
            FailureLog failures,
            String threadName) {
        this.handler = handler;
        this.handlerTimeout = options.handlerTimeout();
        this.events = context.settings().events();
        this.timer = context.timer();
        this.clock = context.clock();
        this.failures = failures;
        this.writes = new DeliveryWrites(leases, context.closed());
        this.leaseKeeper =
                options.autoExtendLease() ? new LeaseKeeper(leases, context.clock(), threadName + "-leases") : null;
        this.failureLogLevel = options.failureLogLevel();
        this.logStackTraces = options.logStackTraces();
        this.executor = Executors.newFixedThreadPool(
                options.concurrency(), HandlerThreads.factory(threadName, options.virtualThreads()));
    }

    /** Logs the jobs a claim of this worker moved to the dead letters because their lease expired. */
    void logReaped(String topic, List<ClaimBatch.Reaped> dead) {
        failures.reaped(topic, dead, failureLogLevel);
    }

    /**
     * Runs {@code task} on one of the worker's handler threads (as many as its concurrency).
     *
     * @throws RejectedExecutionException once the worker is shutting down
     */
    void execute(Runnable task) {
        executor.execute(task);
    }

    /** Hands back a claimed job that will not run, unless its delivery already ended. */
    void handBack(JobContext job) {
        if (job.finish()) {
            writes.handBack(job);
        }
    }

    int activeCount() {
        return running.size();
    }

    /**
     * Runs the job's handler on the calling handler thread and ends the delivery: ack, nack or, when the worker is
     * stopping and the handler has not started, hand-back. Returns whether the job's ack was queued, for the caller to
     * send it unless a claim of the shard will carry it.
     */
    boolean run(JobContext job) {
        if (stopping) {
            // Claimed but not started: hand it back at once without charging the attempt (invariant 10).
            handBack(job);
            return false;
        }
        if (leaseKeeper != null && !leaseKeeper.start(job, handler instanceof BoundedHandler b ? b.boundMs(job) : 0)) {
            // Its lease could not be made to cover the run: another worker may get the job while it would run.
            job.finish();
            return false;
        }
        boolean ackQueued = false;
        running.add(job);
        job.bindThread(Thread.currentThread());
        long started = System.nanoTime();
        long lateMs = Math.max(0, System.currentTimeMillis() - job.record().dueMs());
        Events.notify(() -> events.delivered(job, Duration.ofMillis(lateMs)));
        ScheduledFuture<?> timeout = armTimeout(job, started);
        try {
            byte[] result = Leases.checkResult(handler.handleForResult(job));
            if (job.finish()) {
                Events.notify(() -> events.acked(job, Duration.ofNanos(System.nanoTime() - started)));
                writes.ack(job, result);
                ackQueued = true;
            }
        } catch (Throwable t) {
            if (job.finish()) {
                CallbackHandler.Deferral deferral = CallbackHandler.Deferral.of(t);
                if (deferral != null && job.record().deferrals() < deferral.maxDeferrals()) {
                    defer(job, describe(t), deferral);
                } else {
                    Events.notify(() -> events.failed(job, Duration.ofNanos(System.nanoTime() - started), t));
                    nack(job, describe(t), t);
                }
            }
        } finally {
            if (timeout != null) {
                timeout.cancel(false);
            }
            job.stopKeepingLease();
            running.remove(job);
            job.bindThread(null);
            Thread.interrupted();
        }
        return ackQueued;
    }

    private ScheduledFuture<?> armTimeout(JobContext job, long startedNanos) {
        Duration limit = handlerTimeout;
        if (limit == null) {
            return null;
        }
        Runnable expire = () -> {
            if (job.finish()) {
                job.interruptThread();
                String error = "handler timed out after " + limit.toMillis() + " ms";
                TimeoutException timedOut = new TimeoutException(error);
                Events.notify(() -> events.failed(job, Duration.ofNanos(System.nanoTime() - startedNanos), timedOut));
                nack(job, error, timedOut);
            }
        };
        return timer.schedule(expire, limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Nacks a failed delivery, with the job's backoff or, for a {@link NonRetryableException} anywhere in the cause
     * chain, a delay of -1 (dead now), and logs the failure. Whether the job dies is told from its attempts as
     * {@code nack.lua} decides it, so that the line is written at once, with the exception, whatever Redis does.
     */
    private void nack(JobContext job, String error, Throwable cause) {
        NonRetryableException nonRetryable = NonRetryableException.find(cause);
        String kept = nonRetryable == null ? error : describe(nonRetryable);
        String attempt = job.attempt() + "/" + job.maxAttempts();
        long delay;
        if (nonRetryable != null) {
            delay = -1;
            failures.dead(
                    job.topic(),
                    job.id(),
                    "failed on attempt " + attempt + " with a non-retryable error",
                    kept,
                    cause,
                    failureLogLevel,
                    logStackTraces);
        } else {
            delay = job.record()
                    .backoffOrDefault(Backoff.DEFAULT)
                    .delayAfter(job.attempt())
                    .toMillis();
            CallbackHandler.Deferral deferral = CallbackHandler.Deferral.of(cause);
            if (deferral != null) {
                // Past its deferrals the answer counts, but the receiver's wish still holds: never sooner than asked.
                delay = Math.max(delay, deferral.delayMs());
            }
            if (job.attempt() >= job.maxAttempts()) {
                failures.dead(
                        job.topic(),
                        job.id(),
                        "failed on its last attempt, " + attempt,
                        kept,
                        cause,
                        failureLogLevel,
                        logStackTraces);
            } else {
                failures.retried(
                        job.topic(),
                        job.id(),
                        job.attempt(),
                        job.maxAttempts(),
                        Instant.ofEpochMilli(clock.nowMs() + delay),
                        kept,
                        cause,
                        failureLogLevel,
                        logStackTraces);
            }
        }
        writes.nack(job, kept, delay);
    }

    /**
     * A callback receiver asked to be called again later ({@code 429} or {@code 503} with {@code Retry-After}), and the
     * job has deferrals left: it waits that long, and neither the attempt nor a failure is counted. Logged at DEBUG
     * only, since nothing failed.
     */
    private void defer(JobContext job, String error, CallbackHandler.Deferral deferral) {
        log.debug(
                "callback of job {} in topic {} deferred by its receiver ({}) for {} ms; deferral {} of at most {}",
                job.id(),
                job.topic(),
                error,
                deferral.delayMs(),
                job.record().deferrals() + 1,
                deferral.maxDeferrals());
        writes.defer(job, error, deferral.delayMs(), deferral.maxDeferrals());
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getName() + (message == null ? "" : ": " + message);
    }

    /** Jobs claimed from now on are handed back unstarted. */
    void stop() {
        stopping = true;
    }

    /**
     * Lets running handlers finish for up to {@code grace}, then hands back the jobs of those still running and
     * interrupts them.
     */
    void shutdown(Duration grace) throws InterruptedException {
        executor.shutdown();
        if (!executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            for (JobContext job : running) {
                if (job.finish()) {
                    log.warn(
                            "handler of job {} in topic {} still running after the shutdown grace period;"
                                    + " handing it back",
                            job.id(),
                            job.topic());
                    writes.handBack(job);
                }
            }
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
        if (leaseKeeper != null) {
            leaseKeeper.close();
        }
    }

    /** Waits up to {@code max} for the acks, nacks and hand-backs still on their way. */
    void awaitWrites(Duration max) throws Exception {
        writes.await(max);
    }
}
