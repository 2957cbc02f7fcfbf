package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.HandlerThreads;
import io.hourglass.JobEvents;
import io.hourglass.JobHandler;
import io.hourglass.NonRetryableException;
import io.hourglass.RedisUnavailableException;
import io.hourglass.StaleReceiptException;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a worker's claimed jobs on its handler threads and ends each delivery exactly once: ack when the handler
 * returns, nack with the job's backoff when it throws or times out (dead at once for a {@link NonRetryableException}),
 * hand-back when the worker closes first. A write that Redis cannot serve for a passing reason is retried; one that
 * still fails leaves the job to its lease. Each failure is logged ({@link FailureLog}). With
 * {@link WorkerOptions#autoExtendLease()} (always for callbacks) it extends a running handler's lease whenever half of
 * it is left, until the delivery ends or Redis refuses the receipt. Thread-safe.
 */
final class JobRunner {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /**
     * Pauses (ms) before each retry of an ack, nack or hand-back that Redis could not serve for a passing reason (a
     * slot being resharded answers TRYAGAIN; a failover, READONLY or a lost connection): 1.55 s in all, after which the
     * job waits for its lease to expire like any unfinished delivery.
     */
    private static final long[] WRITE_RETRY_PAUSES_MS = {50, 100, 200, 400, 800};
    /**
     * Least pause (ms) between automatic extensions of one lease, so that a lease shorter than a round trip cannot make
     * a loop of extensions.
     */
    private static final long MIN_EXTENSION_PAUSE_MS = 10;

    private final Leases leases;
    private final HandlerSlots slots;
    private final JobHandler handler;
    private final Duration handlerTimeout;
    private final JobEvents events;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean instanceClosed;
    private final ExecutorService executor;
    private final ServerClock clock;
    private final FailureLog failures;
    private final boolean autoExtendLease;
    private final System.Logger.Level failureLogLevel;
    private final boolean logStackTraces;
    private final Set<JobContext> running = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<?>> pendingWrites = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    JobRunner(
            ClientContext context,
            Leases leases,
            HandlerSlots slots,
            JobHandler handler,
            WorkerOptions options,
            FailureLog failures,
            String threadName) {
        this.leases = leases;
        this.slots = slots;
        this.handler = handler;
        this.handlerTimeout = options.handlerTimeout();
        this.events = context.settings().events();
        this.timer = context.timer();
        this.instanceClosed = context.closed();
        this.clock = context.clock();
        this.failures = failures;
        this.autoExtendLease = options.autoExtendLease();
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
     * Runs a claimed job on a handler thread; its slot was taken by the claim and is given back when it ends.
     *
     * @param ackQueued runs after the job's ack was queued and its slot given back
     */
    void submit(String topic, int shard, ClaimBatch.Claimed claimed, Runnable ackQueued) {
        JobContext job = new JobContext(leases, topic, shard, claimed);
        try {
            executor.execute(() -> run(job, ackQueued));
        } catch (RejectedExecutionException e) {
            // A claim that raced with close(): hand the job back rather than strand it until its lease expires.
            if (job.finish()) {
                handBack(job);
            }
            slots.release(1);
        }
    }

    int activeCount() {
        return running.size();
    }

    private void run(JobContext job, Runnable afterAck) {
        boolean ackQueued = false;
        try {
            if (stopping) {
                // Claimed but not started: hand it back at once without charging the attempt (invariant 10).
                if (job.finish()) {
                    handBack(job);
                }
                return;
            }
            running.add(job);
            job.bindThread(Thread.currentThread());
            long started = System.nanoTime();
            long lateMs = Math.max(0, System.currentTimeMillis() - job.record().dueMs());
            Events.notify(() -> events.delivered(job, Duration.ofMillis(lateMs)));
            ScheduledFuture<?> timeout = armTimeout(job, started);
            if (autoExtendLease) {
                scheduleExtension(job, extensionPause(job));
            }
            try {
                byte[] result = Leases.checkResult(handler.handleForResult(job));
                if (job.finish()) {
                    Events.notify(() -> events.acked(job, Duration.ofNanos(System.nanoTime() - started)));
                    track(
                            leases.queueAck(job.topic(), job.shard(), job.id(), job.receipt(), result),
                            job,
                            "ack",
                            () -> leases.ack(job.topic(), job.id(), job.receipt(), result));
                    ackQueued = true;
                }
            } catch (Throwable t) {
                if (job.finish()) {
                    Events.notify(() -> events.failed(job, Duration.ofNanos(System.nanoTime() - started), t));
                    nack(job, describe(t), t);
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
        } finally {
            // The freed slot may start a claim of the job's shard, which then carries the ack.
            slots.release(1);
            if (ackQueued) {
                afterAck.run();
            }
        }
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
        track(job, "nack", () -> leases.nack(job.topic(), job.id(), job.receipt(), kept, delay));
    }

    /** How long until the lease should be extended: when half the job's lease is left (Redis's clock). */
    private long extensionPause(JobContext job) {
        long leaseMs = job.record().leaseMs();
        long remaining = job.leaseUntil().toEpochMilli() - clock.nowMs();
        return Math.max(MIN_EXTENSION_PAUSE_MS, remaining - leaseMs / 2);
    }

    private void scheduleExtension(JobContext job, long pauseMs) {
        if (job.isFinished()) {
            return;
        }
        try {
            job.keepLease(timer.schedule(() -> extendLease(job), pauseMs, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            // The instance is closing; its handlers' jobs are handed back.
        }
    }

    /**
     * Extends the lease to a full lease from now, unless the delivery ended or the handler extended it itself far
     * enough; stops for good when Redis refuses the receipt.
     */
    private void extendLease(JobContext job) {
        if (job.isFinished()) {
            return;
        }
        long leaseMs = job.record().leaseMs();
        if (job.leaseUntil().toEpochMilli() - clock.nowMs() > leaseMs / 2 + MIN_EXTENSION_PAUSE_MS) {
            scheduleExtension(job, extensionPause(job));
            return;
        }
        leases.extendAsync(job.topic(), job.id(), job.receipt(), leaseMs).whenComplete((until, e) -> {
            if (e == null) {
                job.leaseExtendedTo(until);
                scheduleExtension(job, extensionPause(job));
                return;
            }
            Throwable cause = RedisGateway.unwrap(e);
            if (cause instanceof StaleReceiptException) {
                if (!job.isFinished()) {
                    log.info(
                            "lease of job {} in topic {} was lost (expired, cancelled, rescheduled or replaced);"
                                    + " it is no longer extended",
                            job.id(),
                            job.topic());
                }
                return;
            }
            long retryMs = Math.max(MIN_EXTENSION_PAUSE_MS, leaseMs / 4);
            log.warn(
                    "extending the lease of job {} in topic {} failed; trying again in {} ms: {}",
                    job.id(),
                    job.topic(),
                    retryMs,
                    cause.toString());
            scheduleExtension(job, retryMs);
        });
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getName() + (message == null ? "" : ": " + message);
    }

    private void handBack(JobContext job) {
        track(job, "hand back", () -> leases.release(job.topic(), job.id(), job.receipt()));
    }

    private void track(JobContext job, String what, Supplier<CompletableFuture<?>> write) {
        track(write.get(), job, what, write);
    }

    /**
     * Follows a write that ends a delivery until it is done: retried (by {@code retry}) while Redis answers that it
     * cannot serve it right now, then logged if it failed. A retry is safe because each of these writes is keyed by the
     * receipt: if an earlier try did land, the retry is refused as stale and changes nothing.
     */
    private void track(CompletableFuture<?> write, JobContext job, String what, Supplier<CompletableFuture<?>> retry) {
        CompletableFuture<Void> logged = retried(write, retry, 0).handle((r, e) -> {
            if (e == null) {
                return null;
            }
            Throwable cause = RedisGateway.unwrap(e);
            if (cause instanceof StaleReceiptException) {
                log.info(
                        "{} of job {} in topic {} refused: its lease was lost (expired, cancelled or replaced)",
                        what,
                        job.id(),
                        job.topic());
            } else {
                log.warn(
                        "{} of job {} in topic {} failed; the job will be redelivered when its lease expires: {}",
                        what,
                        job.id(),
                        job.topic(),
                        cause.toString());
            }
            return null;
        });
        pendingWrites.add(logged);
        logged.whenComplete((r, e) -> pendingWrites.remove(logged));
    }

    private CompletableFuture<Void> retried(
            CompletableFuture<?> write, Supplier<CompletableFuture<?>> retry, int retriesDone) {
        return write.<Void>thenApply(r -> null).exceptionallyCompose(e -> {
            if (!(RedisGateway.unwrap(e) instanceof RedisUnavailableException)
                    || retriesDone == WRITE_RETRY_PAUSES_MS.length
                    || instanceClosed.get()) {
                return CompletableFuture.failedFuture(e);
            }
            Executor later =
                    CompletableFuture.delayedExecutor(WRITE_RETRY_PAUSES_MS[retriesDone], TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(retry, later)
                    .thenCompose(next -> retried(next, retry, retriesDone + 1));
        });
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
                    handBack(job);
                }
            }
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** Waits up to {@code max} for the acks, nacks and hand-backs still on their way. */
    void awaitWrites(Duration max) throws Exception {
        CompletableFuture.allOf(pendingWrites.toArray(CompletableFuture[]::new))
                .get(max.toMillis(), TimeUnit.MILLISECONDS);
    }
}
