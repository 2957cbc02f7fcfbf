package io.hourglass.internal;

import io.hourglass.JobState;
import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A delivery's lease from start to end: the claim that leases jobs, and the writes that end or extend a delivery, each
 * fenced by the delivery's receipt: ack, nack, extend and the hand-back of a job that was claimed but not finished.
 * Acks are batched per shard ({@link ShardBatcher}), and an in-process worker's acks may ride on its next claim of the
 * shard ({@link #carryAcks}). Shared by the in-process workers and the pull API; thread-safe.
 */
final class Leases {
    /** Most acks one call carries: an ack costs Redis ~6 µs, so a full batch holds the connection ~1.5 ms. */
    static final int MAX_ACK_BATCH = 256;

    private static final int MAX_ERROR_LENGTH = 4000;

    private final Scripts scripts;
    private final KeyLayout layout;
    private final RedisGateway redis;
    private final ShardBatcher<String> acks;

    Leases(ClientContext context, Scripts scripts) {
        this.scripts = scripts;
        this.layout = context.layout();
        this.redis = context.redis();
        this.acks = new ShardBatcher<>(MAX_ACK_BATCH, Integer.MAX_VALUE, scripts::ack);
    }

    /** Leases up to {@code max} ready jobs of a shard's lane; {@code leaseMs} 0 for each job's own lease. */
    CompletableFuture<ClaimBatch> claim(String topic, int shard, Lane lane, int max, long leaseMs) {
        return scripts.claim(topic, shard, lane, max, leaseMs, List.of());
    }

    /** Leases up to {@code max} ready jobs, and acks on the way the shard's queued acks ({@link #queueAck}). */
    CompletableFuture<ClaimBatch> claimCarryingAcks(String topic, int shard, Lane lane, int max) {
        ShardBatcher.Carried<String> carried = acks.carry(topic, shard);
        return scripts.claim(topic, shard, lane, max, 0, carried.arguments())
                .whenComplete((batch, error) -> carried.complete(batch == null ? null : batch.ackOutcomes(), error));
    }

    /** Acks now, batched with the acks of the shard that arrive while an ack call of it is in flight. */
    CompletableFuture<Void> ack(String topic, String id, String receipt) {
        checkReceipt(topic, id, receipt);
        return acks.submit(topic, layout.shardOf(id), Bytes.of(id), Bytes.of(receipt))
                .thenAccept(outcome -> Scripts.refuseStale(outcome, topic, id, receipt));
    }

    /**
     * Queues the ack of a delivery handed to an in-process handler without sending it, so that the worker's next claim
     * of the shard may carry it; {@link #flushAcks} sends what no claim took.
     */
    CompletableFuture<Void> queueAck(String topic, int shard, String id, String receipt) {
        return acks.enqueue(topic, shard, Bytes.of(id), Bytes.of(receipt))
                .thenAccept(outcome -> Scripts.refuseStale(outcome, topic, id, receipt));
    }

    /** Sends the shard's queued acks now, unless an ack call of that shard is in flight. */
    void flushAcks(String topic, int shard) {
        acks.flush(topic, shard);
    }

    /**
     * Nacks: the job is retried after {@code delayMs}, or dead when its attempts are exhausted.
     *
     * @param delayMs the retry delay; null for the job's own backoff after its current attempt; -1 for dead now
     */
    CompletableFuture<JobState> nack(String topic, String id, String receipt, String error, Long delayMs) {
        checkReceipt(topic, id, receipt);
        CompletableFuture<Long> delay =
                delayMs != null ? CompletableFuture.completedFuture(delayMs) : backoffDelay(topic, id);
        String text =
                error == null ? "" : error.length() > MAX_ERROR_LENGTH ? error.substring(0, MAX_ERROR_LENGTH) : error;
        return delay.thenCompose(ms -> scripts.nack(topic, id, receipt, ms, text));
    }

    /** The job's backoff after its current attempt, read from its record (for pull workers that give no delay). */
    private CompletableFuture<Long> backoffDelay(String topic, String id) {
        return scripts.get(topic, id).thenApply(info -> info.map(
                        job -> job.backoff().delayAfter(job.attempt()).toMillis())
                .orElse(0L));
    }

    /** Extends the lease to {@code lease} from now; blocks for one round trip. Returns the new deadline. */
    Instant extend(String topic, String id, String receipt, Duration lease) {
        checkReceipt(topic, id, receipt);
        long ms = Names.checkLease(lease, "lease").toMillis();
        return redis.await(scripts.extend(topic, id, receipt, ms), "extend");
    }

    /** Extends the lease to {@code leaseMs} from now, without blocking; completes with the new deadline. */
    CompletableFuture<Instant> extendAsync(String topic, String id, String receipt, long leaseMs) {
        return scripts.extend(topic, id, receipt, leaseMs);
    }

    /** Hands a claimed job back without charging its attempt (a worker shutting down). */
    CompletableFuture<Void> release(String topic, String id, String receipt) {
        return scripts.release(topic, id, receipt);
    }

    private static void checkReceipt(String topic, String id, String receipt) {
        Names.checkTopic(topic);
        Names.checkId(id);
        if (receipt == null || receipt.isEmpty() || receipt.length() > 64) {
            throw new IllegalArgumentException("receipt: must be a receipt from a delivery, got " + receipt);
        }
    }
}
