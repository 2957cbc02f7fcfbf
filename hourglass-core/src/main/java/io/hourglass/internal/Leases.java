package io.hourglass.internal;

import io.hourglass.Hourglass;
import io.hourglass.HourglassSettings;
import io.hourglass.JobState;
import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger log = LoggerFactory.getLogger(Leases.class);

    private final Scripts scripts;
    private final LeaseScripts leaseScripts;
    private final KeyLayout layout;
    private final RedisGateway redis;
    private final ShardBatcher<String> acks;
    private final HourglassSettings settings;
    private final Set<String> trimmedTopics = ConcurrentHashMap.newKeySet();

    Leases(ClientContext context, Scripts scripts) {
        this.scripts = scripts;
        this.leaseScripts = new LeaseScripts(scripts, context.settings());
        this.settings = context.settings();
        this.layout = context.layout();
        this.redis = context.redis();
        this.acks = new ShardBatcher<>(MAX_ACK_BATCH, Integer.MAX_VALUE, leaseScripts::ack);
    }

    /** Leases up to {@code max} ready jobs of a shard's lane; {@code leaseMs} 0 for each job's own lease. */
    CompletableFuture<ClaimBatch> claim(String topic, int shard, Lane lane, int max, long leaseMs) {
        return leaseScripts
                .claim(topic, shard, lane, max, leaseMs, List.of())
                .whenComplete((batch, error) -> noteTrimmed(topic, batch));
    }

    /** Leases up to {@code max} ready jobs, and acks on the way the shard's queued acks ({@link #queueAck}). */
    CompletableFuture<ClaimBatch> claimCarryingAcks(String topic, int shard, Lane lane, int max) {
        ShardBatcher.Carried<String> carried = acks.carry(topic, shard);
        return leaseScripts
                .claim(topic, shard, lane, max, 0, carried.arguments())
                .whenComplete((batch, error) -> {
                    carried.complete(batch == null ? null : batch.ackOutcomes(), error);
                    noteTrimmed(topic, batch);
                });
    }

    /**
     * Acks now, batched with the acks of the shard that arrive while an ack call of it is in flight.
     *
     * @param result the job's result, kept while the topic retains completed jobs; null for none
     */
    CompletableFuture<Void> ack(String topic, String id, String receipt, byte[] result) {
        checkReceipt(topic, id, receipt);
        checkResult(result);
        return acks.submit(topic, layout.shardOf(id), Bytes.of(id), receiptArgument(receipt, result))
                .thenAccept(outcome -> LeaseScripts.refuseStale(outcome, topic, id, receipt));
    }

    /**
     * Queues the ack of a delivery handed to an in-process handler without sending it, so that the worker's next claim
     * of the shard may carry it; {@link #flushAcks} sends what no claim took.
     *
     * @param result the job's result (checked by {@link #checkResult}); null for none
     */
    CompletableFuture<Void> queueAck(String topic, int shard, String id, String receipt, byte[] result) {
        return acks.enqueue(topic, shard, Bytes.of(id), receiptArgument(receipt, result))
                .thenAccept(outcome -> LeaseScripts.refuseStale(outcome, topic, id, receipt));
    }

    /**
     * @return {@code result}
     * @throws IllegalArgumentException naming {@code result} when it is longer than {@link Hourglass#MAX_RESULT_BYTES}
     */
    static byte[] checkResult(byte[] result) {
        if (result != null && result.length > Hourglass.MAX_RESULT_BYTES) {
            throw new IllegalArgumentException(
                    "result: must be at most " + Hourglass.MAX_RESULT_BYTES + " bytes, got " + result.length);
        }
        return result;
    }

    /** An ack's receipt argument: the receipt, then a newline and the result when there is one (ack.lua). */
    private static byte[] receiptArgument(String receipt, byte[] result) {
        byte[] r = Bytes.of(receipt);
        if (result == null) {
            return r;
        }
        byte[] both = Arrays.copyOf(r, r.length + 1 + result.length);
        both[r.length] = '\n';
        System.arraycopy(result, 0, both, r.length + 1, result.length);
        return both;
    }

    /**
     * Logs, once per topic and process, that the topic's dead letters reached their limits and are being trimmed: the
     * scripts count every trimmed one (the inspector's {@code deadLettersTrimmed}), so one line says it all.
     */
    private void noteTrimmed(String topic, ClaimBatch batch) {
        if (batch != null) {
            noteTrimmed(topic, batch.deadLettersTrimmed());
        }
    }

    private void noteTrimmed(String topic, int trimmed) {
        if (trimmed > 0 && trimmedTopics.add(topic)) {
            log.warn(
                    "Topic {} reached its dead-letter limits (count: {}, age: {}): the oldest dead"
                            + " letters are deleted from now on, and counted in the topic overview's"
                            + " deadLettersTrimmed; this line is written once per topic and process",
                    topic,
                    settings.deadLetterMaxCount(topic) == 0 ? "no limit" : settings.deadLetterMaxCount(topic),
                    settings.deadLetterMaxAge(topic).isZero() ? "no limit" : settings.deadLetterMaxAge(topic));
        }
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
        return delay.thenCompose(ms -> leaseScripts.nack(topic, id, receipt, ms, text))
                .thenApply(nacked -> {
                    noteTrimmed(topic, nacked.deadLettersTrimmed());
                    return nacked.state();
                });
    }

    /**
     * Defers a callback job whose receiver answered {@code 429} or {@code 503} with {@code Retry-After}: due again in
     * {@code delayMs} without charging its attempt, unless it was deferred {@code maxDeferrals} times already; then it
     * is nacked as a failed attempt after {@code delayMs}, with {@code error}. Completes with the job's new state.
     */
    CompletableFuture<JobState> defer(
            String topic, String id, String receipt, String error, long delayMs, int maxDeferrals) {
        checkReceipt(topic, id, receipt);
        return leaseScripts
                .nack(topic, id, receipt, delayMs, error, delayMs, maxDeferrals)
                .thenApply(nacked -> {
                    noteTrimmed(topic, nacked.deadLettersTrimmed());
                    return nacked.state();
                });
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
        return redis.await(leaseScripts.extend(topic, id, receipt, ms), "extend");
    }

    /** Extends the lease to {@code leaseMs} from now, without blocking; completes with the new deadline. */
    CompletableFuture<Instant> extendAsync(String topic, String id, String receipt, long leaseMs) {
        return leaseScripts.extend(topic, id, receipt, leaseMs);
    }

    /** Hands a claimed job back without charging its attempt (a worker shutting down). */
    CompletableFuture<Void> release(String topic, String id, String receipt) {
        return leaseScripts.release(topic, id, receipt);
    }

    private static void checkReceipt(String topic, String id, String receipt) {
        Names.checkTopic(topic);
        Names.checkId(id);
        if (receipt == null || receipt.isEmpty() || receipt.length() > 64) {
            throw new IllegalArgumentException("receipt: must be a receipt from a delivery, got " + receipt);
        }
    }
}
