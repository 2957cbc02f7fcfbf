package io.hourglass.internal;

import io.hourglass.RedisUnavailableException;
import io.hourglass.StaleReceiptException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes that end an in-process delivery: the ack (queued, so that the worker's next claim of the shard may carry
 * it), the nack and the hand-back. Each is followed until it is done: retried while Redis answers that it cannot serve
 * it right now, then logged if it failed, when the job is left to its lease. Thread-safe.
 */
final class DeliveryWrites {
    /** The runner's logger: what happens to a delivery is logged under one name. */
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /**
     * Pauses (ms) before each retry of an ack, nack or hand-back that Redis could not serve for a passing reason (a
     * slot being resharded answers TRYAGAIN; a failover, READONLY or a lost connection): 1.55 s in all, after which the
     * job waits for its lease to expire like any unfinished delivery.
     */
    private static final long[] WRITE_RETRY_PAUSES_MS = {50, 100, 200, 400, 800};

    private final Leases leases;
    private final AtomicBoolean instanceClosed;
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();

    DeliveryWrites(Leases leases, AtomicBoolean instanceClosed) {
        this.leases = leases;
        this.instanceClosed = instanceClosed;
    }

    /**
     * Queues the job's ack, with its handler's result (null for none), for the shard's next claim or ack call; a retry
     * sends it on its own.
     */
    void ack(JobContext job, byte[] result) {
        track(
                leases.queueAck(job.topic(), job.shard(), job.id(), job.receipt(), result),
                job,
                "ack",
                () -> leases.ack(job.topic(), job.id(), job.receipt(), result));
    }

    /** Nacks the job: retried after {@code delayMs}, or dead now for -1 (or when its attempts are exhausted). */
    void nack(JobContext job, String error, long delayMs) {
        track(job, "nack", () -> leases.nack(job.topic(), job.id(), job.receipt(), error, delayMs));
    }

    /**
     * Defers a callback job whose receiver asked for later: it is due again in {@code delayMs}, no attempt charged,
     * while it has been deferred fewer than {@code maxDeferrals} times ({@code nack.lua}); else a failed attempt with
     * {@code error}.
     */
    void defer(JobContext job, String error, long delayMs, int maxDeferrals) {
        track(job, "deferral", () -> leases.defer(job.topic(), job.id(), job.receipt(), error, delayMs, maxDeferrals));
    }

    /** Hands the job back without charging its attempt. */
    void handBack(JobContext job) {
        track(job, "hand back", () -> leases.release(job.topic(), job.id(), job.receipt()));
    }

    /** Waits up to {@code max} for the writes still on their way. */
    void await(Duration max) throws Exception {
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(max.toMillis(), TimeUnit.MILLISECONDS);
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
        pending.add(logged);
        logged.whenComplete((r, e) -> pending.remove(logged));
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
}
