package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.HandlerThreads;
import io.hourglass.JobEvents;
import io.hourglass.JobHandler;
import io.hourglass.RedisUnavailableException;
import io.hourglass.StaleReceiptException;
import io.hourglass.WorkerOptions;
import java.time.Duration;
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
 * returns, nack with the job's backoff when it throws or times out, hand-back when the worker closes first. A write
 * that Redis cannot serve for a passing reason is retried; one that still fails leaves the job to its lease.
 * Thread-safe.
 */
final class JobRunner {
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /**
     * Pauses (ms) before each retry of an ack, nack or hand-back that Redis could not serve for a passing reason
     * (a slot being resharded answers TRYAGAIN; a failover, READONLY or a lost connection): 1.55 s in all, after
     * which the job waits for its lease to expire like any unfinished delivery.
     */
    private static final long[] WRITE_RETRY_PAUSES_MS = {50, 100, 200, 400, 800};

    private final Leases leases;
    private final HandlerSlots slots;
    private final JobHandler handler;
    private final Duration handlerTimeout;
    private final JobEvents events;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean instanceClosed;
    private final ExecutorService executor;
    private final Set<JobContext> running = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<?>> pendingWrites = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    JobRunner(
            ClientContext context,
            Leases leases,
            HandlerSlots slots,
            JobHandler handler,
            WorkerOptions options,
            String threadName) {
        this.leases = leases;
        this.slots = slots;
        this.handler = handler;
        this.handlerTimeout = options.handlerTimeout();
        this.events = context.settings().events();
        this.timer = context.timer();
        this.instanceClosed = context.closed();
        this.executor = Executors.newFixedThreadPool(
                options.concurrency(), HandlerThreads.factory(threadName, options.virtualThreads()));
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
            try {
                handler.handle(job);
                if (job.finish()) {
                    Events.notify(() -> events.acked(job, Duration.ofNanos(System.nanoTime() - started)));
                    track(
                            leases.queueAck(job.topic(), job.shard(), job.id(), job.receipt()),
                            job,
                            "ack",
                            () -> leases.ack(job.topic(), job.id(), job.receipt()));
                    ackQueued = true;
                }
            } catch (Throwable t) {
                if (job.finish()) {
                    Events.notify(() -> events.failed(job, Duration.ofNanos(System.nanoTime() - started), t));
                    nack(job, describe(t));
                }
            } finally {
                if (timeout != null) {
                    timeout.cancel(false);
                }
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
                Events.notify(() -> events.failed(
                        job, Duration.ofNanos(System.nanoTime() - startedNanos), new TimeoutException(error)));
                nack(job, error);
            }
        };
        return timer.schedule(expire, limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void nack(JobContext job, String error) {
        Backoff backoff = job.record().backoffOrDefault(Backoff.DEFAULT);
        long delay = backoff.delayAfter(job.attempt()).toMillis();
        track(job, "nack", () -> leases.nack(job.topic(), job.id(), job.receipt(), error, delay));
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
     * cannot serve it right now, then logged if it failed. A retry is safe because each of these writes is keyed by
     * the receipt: if an earlier try did land, the retry is refused as stale and changes nothing.
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
