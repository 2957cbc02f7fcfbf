package io.hourglass.internal;

import io.hourglass.HourglassSettings;
import io.hourglass.JobState;
import io.hourglass.StaleReceiptException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Java side of the scripts of a delivery's lease: {@code claim.lua} and {@code ack.lua}, and the receipt-fenced
 * {@code nack.lua}, {@code extend.lua} and {@code release.lua}. Packs each one's ARGV and reads its reply; the calls go
 * through {@link Scripts#call}. Thread-safe.
 */
final class LeaseScripts {
    /** Most expired leases one claim reaps, so one script call stays short however many workers crashed. */
    static final int REAP_LIMIT = 1000;

    private static final SecureRandom NONCES = new SecureRandom();

    private final Scripts scripts;
    private final HourglassSettings settings;

    LeaseScripts(Scripts scripts, HourglassSettings settings) {
        this.scripts = scripts;
        this.settings = settings;
    }

    // ---- claim.lua and ack.lua

    /** Claims up to {@code max} ready jobs and acks on the way the {@code acks} (id, receipt, id, receipt, …). */
    CompletableFuture<ClaimBatch> claim(String topic, int shard, Lane lane, int max, long leaseMs, List<byte[]> acks) {
        List<byte[]> args = new ArrayList<>(8 + acks.size());
        args.add(Bytes.of(lane.index));
        args.add(Bytes.of(max));
        args.add(Bytes.of(leaseMs));
        args.add(Bytes.of(REAP_LIMIT));
        args.add(Bytes.of(Long.toHexString(NONCES.nextLong() | Long.MIN_VALUE)));
        args.add(Bytes.of(deadLetterMaxPerShard(topic)));
        args.add(Bytes.of(settings.deadLetterMaxAge(topic).toMillis()));
        args.add(Bytes.of(settings.completedRetention(topic).toMillis()));
        args.addAll(acks);
        return scripts.call(Script.CLAIM, topic, shard, args.toArray(byte[][]::new))
                .thenApply(LeaseScripts::claimed);
    }

    /** The reply of {@code claim.lua}. */
    static ClaimBatch claimed(List<Object> reply) {
        int acks = ((Long) reply.get(3)).intValue();
        int deaths = ((Long) reply.get(4 + acks)).intValue();
        List<ClaimBatch.Reaped> dead = List.of();
        if (deaths > 0) {
            dead = new ArrayList<>(deaths);
            for (int i = 5 + acks; i < 5 + acks + 2 * deaths; i += 2) {
                dead.add(new ClaimBatch.Reaped(
                        new String((byte[]) reply.get(i), StandardCharsets.UTF_8),
                        new String((byte[]) reply.get(i + 1), StandardCharsets.UTF_8)));
            }
        }
        int trimmed = ((Long) reply.get(5 + acks + 2 * deaths)).intValue();
        int first = 6 + acks + 2 * deaths;
        List<ClaimBatch.Claimed> jobs = new ArrayList<>((reply.size() - first) / 4);
        for (int i = first; i + 3 < reply.size(); i += 4) {
            String id = new String((byte[]) reply.get(i), StandardCharsets.UTF_8);
            String receipt = new String((byte[]) reply.get(i + 3), StandardCharsets.US_ASCII);
            jobs.add(new ClaimBatch.Claimed(
                    id, JobRecord.decodeLeased((byte[]) reply.get(i + 1), receipt), receipt, (Long) reply.get(i + 2)));
        }
        return new ClaimBatch(
                (Long) reply.get(0),
                (Long) reply.get(1),
                (Long) reply.get(2) == 1,
                Bytes.strings(reply.subList(4, 4 + acks)),
                dead,
                jobs,
                trimmed,
                (Long) reply.get(2) == 2);
    }

    /**
     * Acks a batch of deliveries of one shard (id, receipt, id, receipt, …, a receipt optionally followed by a newline
     * and the job's result); one outcome per delivery.
     */
    CompletableFuture<List<String>> ack(String topic, int shard, List<byte[]> idsAndReceipts) {
        byte[][] args = new byte[idsAndReceipts.size() + 1][];
        args[0] = Bytes.of(settings.completedRetention(topic).toMillis());
        for (int i = 0; i < idsAndReceipts.size(); i++) {
            args[i + 1] = idsAndReceipts.get(i);
        }
        return scripts.call(Script.ACK, topic, shard, args).thenApply(Bytes::strings);
    }

    /**
     * The dead letters one shard of the topic keeps at most: the topic's limit shared evenly by its shards (rounded up,
     * since ids spread evenly but not exactly), 0 for no limit.
     */
    private long deadLetterMaxPerShard(String topic) {
        long max = settings.deadLetterMaxCount(topic);
        return max == 0 ? 0 : (max + settings.shards() - 1) / settings.shards();
    }

    // ---- nack.lua, extend.lua, release.lua: fenced by the receipt

    /** A nack's outcome: the job's new state, and how many dead letters the shard trimmed to its limits. */
    record Nacked(JobState state, int deadLettersTrimmed) {}

    /** Completes with the job's new state; a delay of -1 means dead now. */
    CompletableFuture<Nacked> nack(String topic, String id, String receipt, long delayMs, String error) {
        return callNack(topic, id, receipt, nackArgs(topic, id, receipt, delayMs, error, 0));
    }

    /**
     * A nack that is a deferral while the job has been deferred fewer than {@code maxDeferrals} times: due again in
     * {@code deferMs}, no attempt charged; past that, as {@link #nack(String, String, String, long, String)}.
     */
    CompletableFuture<Nacked> nack(
            String topic, String id, String receipt, long delayMs, String error, long deferMs, int maxDeferrals) {
        byte[][] args = nackArgs(topic, id, receipt, delayMs, error, 2);
        args[6] = Bytes.of(deferMs);
        args[7] = Bytes.of(maxDeferrals);
        return callNack(topic, id, receipt, args);
    }

    /** The arguments of {@code nack.lua} up to the dead letters' limits, with {@code room} more left empty. */
    private byte[][] nackArgs(String topic, String id, String receipt, long delayMs, String error, int room) {
        byte[][] args = new byte[6 + room][];
        args[0] = Bytes.of(id);
        args[1] = Bytes.of(receipt);
        args[2] = Bytes.of(delayMs);
        args[3] = Bytes.of(error);
        args[4] = Bytes.of(deadLetterMaxPerShard(topic));
        args[5] = Bytes.of(settings.deadLetterMaxAge(topic).toMillis());
        return args;
    }

    private CompletableFuture<Nacked> callNack(String topic, String id, String receipt, byte[]... args) {
        return scripts.call(Script.NACK, topic, id, args).thenApply(reply -> {
            refuseStale(Bytes.str(reply.get(0)), topic, id, receipt);
            return new Nacked(JobState.valueOf(Bytes.str(reply.get(1))), ((Long) reply.get(3)).intValue());
        });
    }

    /** Completes with the new lease deadline. */
    CompletableFuture<Instant> extend(String topic, String id, String receipt, long leaseMs) {
        return scripts.call(Script.EXTEND, topic, id, Bytes.of(id), Bytes.of(receipt), Bytes.of(leaseMs))
                .thenApply(reply -> {
                    refuseStale(Bytes.str(reply.get(0)), topic, id, receipt);
                    return Instant.ofEpochMilli((Long) reply.get(1));
                });
    }

    CompletableFuture<Void> release(String topic, String id, String receipt) {
        return scripts.call(Script.RELEASE, topic, id, Bytes.of(id), Bytes.of(receipt))
                .thenAccept(reply -> refuseStale(Bytes.str(reply.get(0)), topic, id, receipt));
    }

    /** @throws StaleReceiptException unless a receipt-fenced script answered OK */
    static void refuseStale(String outcome, String topic, String id, String receipt) {
        if (!outcome.equals("OK")) {
            throw new StaleReceiptException(topic, id, receipt, !outcome.equals("MISSING"));
        }
    }
}
