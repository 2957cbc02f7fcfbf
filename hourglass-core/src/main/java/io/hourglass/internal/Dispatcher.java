package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.JobEvents;
import io.hourglass.JobHandler;
import io.hourglass.RedisUnavailableException;
import io.hourglass.StaleReceiptException;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one handler over one or more topics of one lane: owns the handler slots (a semaphore as wide as the
 * concurrency, source 000's back-pressure), the handler threads, and one {@link TopicWorker} per topic that
 * claims jobs into free slots. Acks on return, nacks with the job's backoff on a throw or a timeout.
 */
final class Dispatcher implements Worker {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    /**
     * Pauses (ms) before each retry of an ack, nack or hand-back that Redis could not serve for a passing reason
     * (a slot being resharded answers TRYAGAIN; a failover, READONLY or a lost connection): 1.55 s in all, after
     * which the job waits for its lease to expire like any unfinished delivery.
     */
    private static final long[] WRITE_RETRY_PAUSES_MS = {50, 100, 200, 400, 800};

    private final HourglassClient client;
    private final String name;
    private final Lane lane;
    private final JobHandler handler;
    private final WorkerOptions options;
    private final JobEvents events;
    private final Semaphore slots;
    /** Free slots a claim needs while another claim of its shard is in flight ({@link #enoughSlotsBesideAClaim}). */
    private final int slotsBesideAClaim;

    private final ExecutorService executor;
    private final Map<String, TopicWorker> topics = new ConcurrentHashMap<>();
    private final Set<JobContext> running = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<?>> pendingWrites = ConcurrentHashMap.newKeySet();
    private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    Dispatcher(HourglassClient client, String name, Lane lane, JobHandler handler, WorkerOptions options) {
        this.client = client;
        this.name = name;
        this.lane = lane;
        this.handler = handler;
        this.options = options;
        this.events = client.settings().events();
        this.slots = new Semaphore(options.concurrency());
        this.slotsBesideAClaim = Math.max(1, Math.min(options.maxBatch(), options.concurrency() / 2));
        this.executor = Executors.newFixedThreadPool(
                options.concurrency(),
                HandlerThreads.factory(
                        "hourglass-" + (lane == Lane.CALLBACK ? "callback" : "worker-" + name),
                        options.virtualThreads()));
    }

    HourglassClient client() {
        return client;
    }

    Lane lane() {
        return lane;
    }

    boolean stopping() {
        return stopping;
    }

    int maxBatch() {
        return options.maxBatch();
    }

    void addTopic(String topic) {
        if (stopping) {
            return;
        }
        topics.computeIfAbsent(topic, t -> {
            TopicWorker w = new TopicWorker(this, t);
            w.start();
            return w;
        });
    }

    void onClose(Runnable action) {
        closeActions.add(action);
    }

    /** Takes up to {@code max} free slots without waiting; returns how many it took. */
    int takeSlots(int max) {
        int taken = 0;
        while (taken < max && slots.tryAcquire()) {
            taken++;
        }
        return taken;
    }

    /**
     * Whether enough slots are free for a claim while another claim of the same shard is in flight: half the
     * concurrency (at most a full batch). Fewer wait for that claim's reply and go out with the slots freed meanwhile,
     * so that a burst is claimed in fewer, larger batches.
     */
    boolean enoughSlotsBesideAClaim() {
        return slots.availablePermits() >= slotsBesideAClaim;
    }

    void returnSlots(int n) {
        if (n <= 0) {
            return;
        }
        slots.release(n);
        if (!stopping) {
            topics.values().forEach(TopicWorker::onSlotsFreed);
        }
    }

    boolean hasFreeSlots() {
        return slots.availablePermits() > 0;
    }

    /** Runs a job that {@code source} claimed from {@code shard} on a handler thread; its slot was taken by the claim. */
    void submit(TopicWorker source, int shard, ClaimBatch.Claimed claimed) {
        String topic = source.topic();
        JobContext job = new JobContext(client, topic, shard, claimed);
        try {
            executor.execute(() -> run(job, source));
        } catch (RejectedExecutionException e) {
            // A claim that raced with close(): hand the job back rather than strand it until its lease expires.
            if (job.finish()) {
                handBack(job);
            }
            returnSlots(1);
        }
    }

    private void run(JobContext job, TopicWorker source) {
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
                            client.queueAck(job.topic(), job.shard(), job.id(), job.receipt()),
                            job,
                            "ack",
                            () -> client.ackAsync(job.topic(), job.id(), job.receipt()));
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
            returnSlots(1);
            if (ackQueued) {
                source.flushAcksUnlessClaimInFlight(job.shard());
            }
        }
    }

    private ScheduledFuture<?> armTimeout(JobContext job, long startedNanos) {
        Duration limit = options.handlerTimeout();
        if (limit == null) {
            return null;
        }
        return client.timer()
                .schedule(
                        () -> {
                            if (job.finish()) {
                                job.interruptThread();
                                String error = "handler timed out after " + limit.toMillis() + " ms";
                                Events.notify(() -> events.failed(
                                        job,
                                        Duration.ofNanos(System.nanoTime() - startedNanos),
                                        new TimeoutException(error)));
                                nack(job, error);
                            }
                        },
                        limit.toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    private void nack(JobContext job, String error) {
        Backoff backoff = job.record().backoffOrDefault(Backoff.DEFAULT);
        long delay = backoff.delayAfter(job.attempt()).toMillis();
        track(job, "nack", () -> client.nackAsync(job.topic(), job.id(), job.receipt(), error, delay));
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getName() + (message == null ? "" : ": " + message);
    }

    private void handBack(JobContext job) {
        track(job, "hand back", () -> client.releaseAsync(job.topic(), job.id(), job.receipt()));
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
                    || client.isClosed()) {
                return CompletableFuture.failedFuture(e);
            }
            Executor later =
                    CompletableFuture.delayedExecutor(WRITE_RETRY_PAUSES_MS[retriesDone], TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(retry, later)
                    .thenCompose(next -> retried(next, retry, retriesDone + 1));
        });
    }

    void logRedisFailure(String what, Throwable e) {
        log.warn("{} for {} failed: {}", what, name, RedisGateway.unwrap(e).toString());
    }

    @Override
    public String topic() {
        return name;
    }

    @Override
    public int activeCount() {
        return running.size();
    }

    @Override
    public boolean isRunning() {
        return !stopping;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        closeActions.forEach(Runnable::run);
        topics.values().forEach(TopicWorker::stop);
        topics.values()
                .forEach(w -> w.awaitNoClaimInFlight(options.shutdownGrace().plusSeconds(5)));
        executor.shutdown();
        try {
            if (!executor.awaitTermination(options.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                for (JobContext job : running) {
                    if (job.finish()) {
                        log.warn(
                                "handler of job {} in topic {} still running after the shutdown grace period; handing it back",
                                job.id(),
                                job.topic());
                        handBack(job);
                    }
                }
                executor.shutdownNow();
                executor.awaitTermination(5, TimeUnit.SECONDS);
            }
            topics.values().forEach(TopicWorker::flushAcks);
            CompletableFuture.allOf(pendingWrites.toArray(CompletableFuture[]::new))
                    .get(client.settings().commandTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("some acks or hand-backs of {} did not complete before shutdown: {}", name, e.toString());
        }
        client.forget(this);
    }
}
