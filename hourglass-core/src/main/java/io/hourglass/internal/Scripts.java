package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.HourglassSettings;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.OnExpiry;
import io.hourglass.ScheduleResult;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Java side of each Lua script's header: packs its ARGV and reads its reply, one method per script (or per reply);
 * the scripts of a delivery's lease (claim, ack, nack, extend, release) are in {@link LeaseScripts}. Every per-shard
 * call gets the shard's eighteen KEYS, the topic's wake channel and the shard index first. Knows nothing about who
 * calls it. Thread-safe.
 */
final class Scripts {
    private final RedisGateway redis;
    private final KeyLayout layout;
    private final HourglassSettings settings;
    private final Map<String, byte[][]> keyCache = new ConcurrentHashMap<>();
    /** Appended to ARGV[2], the shard index, when history events are on (common.lua reads it there); else empty. */
    private final String historyFlag;

    Scripts(RedisGateway redis, KeyLayout layout, HourglassSettings settings) {
        this.redis = redis;
        this.layout = layout;
        this.settings = settings;
        this.historyFlag = settings.historyStreamLength() > 0
                ? "/" + settings.historyStreamLength() + "/" + settings.historyPayloadLimitBytes()
                : "";
    }

    // ---- schedule.lua

    /**
     * A job's expiry as {@code schedule.lua} takes it.
     *
     * @param mode {@code ""} (none), {@code "at"} ({@code value} is epoch ms) or {@code "ttl"} ({@code value} is ms
     *     after the due time)
     */
    record Expiry(String mode, long value, OnExpiry onExpiry) {}

    /**
     * One job's sixteen arguments of {@code schedule.lua}; {@code callbackUrl} and {@code failureCallbackUrl} are empty
     * for none, {@code idempotencyWindowMs} 0 when off, {@code dispatchDeadlineMs} 0 for the dispatcher's own.
     */
    static byte[][] scheduleArgs(
            String id,
            OnConflict onConflict,
            String mode,
            long when,
            int maxAttempts,
            long leaseMs,
            Backoff backoff,
            String callbackUrl,
            long idempotencyWindowMs,
            byte[] payload,
            Expiry expiry,
            String failureCallbackUrl,
            int priority,
            long dispatchDeadlineMs) {
        return new byte[][] {
            Bytes.of(id),
            Bytes.of(onConflict.name().toLowerCase(Locale.ROOT)),
            Bytes.of(mode),
            Bytes.of(when),
            Bytes.of(maxAttempts),
            Bytes.of(leaseMs),
            // The default schedule is stored as '' to keep every record short.
            Bytes.of(backoff.equals(Backoff.DEFAULT) ? "" : backoff.spec()),
            Bytes.of(callbackUrl),
            Bytes.of(idempotencyWindowMs),
            payload,
            Bytes.of(expiry.mode()),
            Bytes.of(expiry.value()),
            Bytes.of(expiry.onExpiry() == OnExpiry.DROP ? "drop" : ""),
            Bytes.of(failureCallbackUrl),
            // The default priority is stored as '' (in the job's lane's `waiting` set, as without priorities).
            priority == JobRequest.DEFAULT_PRIORITY ? new byte[0] : Bytes.of(priority),
            Bytes.of(dispatchDeadlineMs)
        };
    }

    /** Schedules a batch of jobs of one shard (their arguments one after another); one reply group per job. */
    CompletableFuture<List<List<Object>>> schedule(String topic, int shard, List<byte[]> jobs) {
        return durable(call(Script.SCHEDULE, topic, shard, jobs.toArray(byte[][]::new)), "schedule")
                .thenApply(reply -> Bytes.groups(reply, 3));
    }

    /**
     * One job's reply group of {@code schedule.lua} as the caller sees it.
     *
     * @throws JobAlreadyExistsException when the id existed and the request said reject
     */
    static ScheduleResult scheduled(String id, String topic, List<Object> reply) {
        String outcome = Bytes.str(reply.get(0));
        if (outcome.endsWith("_ENDED")) {
            // The id is reserved by a job that ended within its idempotency window: how it ended, and when.
            ScheduleResult reserved = new ScheduleResult(
                    id,
                    topic,
                    null,
                    null,
                    ScheduleResult.Outcome.KEPT,
                    ScheduleResult.Ended.valueOf(Bytes.str(reply.get(1))),
                    Instant.ofEpochMilli((Long) reply.get(2)));
            if (outcome.startsWith("EXISTS")) {
                throw new JobAlreadyExistsException(reserved);
            }
            return reserved;
        }
        ScheduleResult result = new ScheduleResult(
                id,
                topic,
                JobState.valueOf(Bytes.str(reply.get(1))),
                Instant.ofEpochMilli((Long) reply.get(2)),
                outcome.equals("EXISTS") ? ScheduleResult.Outcome.KEPT : ScheduleResult.Outcome.valueOf(outcome));
        if (outcome.equals("EXISTS")) {
            throw new JobAlreadyExistsException(result);
        }
        return result;
    }

    // ---- get.lua, cancel.lua, reschedule.lua, requeue.lua

    /** The job, or empty when it does not exist. */
    CompletableFuture<Optional<JobInfo>> get(String topic, String id) {
        return call(Script.GET, topic, id, Bytes.of(id)).thenApply(reply -> {
            if (reply.isEmpty()) {
                return Optional.empty();
            }
            long leaseUntil = (Long) reply.get(3);
            if (reply.size() > 4) {
                // A completed job retained after its ack: its completion time, and its result when it has one.
                return Optional.of(info(
                        topic,
                        id,
                        JobState.COMPLETED,
                        JobRecord.decode((byte[]) reply.get(1)),
                        "",
                        null,
                        Instant.ofEpochMilli((Long) reply.get(4)),
                        reply.size() > 5 ? (byte[]) reply.get(5) : null));
            }
            return Optional.of(info(
                    topic,
                    id,
                    JobState.valueOf(Bytes.str(reply.get(0))),
                    JobRecord.decode((byte[]) reply.get(1)),
                    Bytes.str(reply.get(2)),
                    leaseUntil < 0 ? null : Instant.ofEpochMilli(leaseUntil)));
        });
    }

    /**
     * Removes the job, in any state, or only a dead letter when {@code requiredState} is {@code "DEAD"}; completes with
     * the state it was in, {@code MISSING} or {@code WRONG_STATE}.
     */
    CompletableFuture<String> cancel(String topic, String id, String requiredState) {
        return call(Script.CANCEL, topic, id, Bytes.of(id), Bytes.of(requiredState))
                .thenApply(reply -> Bytes.str(reply.get(0)));
    }

    /** The reply of {@code reschedule.lua}: {@code OK} (with state and due time), {@code DEAD} or {@code MISSING}. */
    record Rescheduled(String outcome, ScheduleResult result) {}

    /** @param mode {@code "at"} (when is epoch ms) or {@code "delay"} (when is ms from now) */
    CompletableFuture<Rescheduled> reschedule(String topic, String id, String mode, long when) {
        return durable(call(Script.RESCHEDULE, topic, id, Bytes.of(id), Bytes.of(mode), Bytes.of(when)), "reschedule")
                .thenApply(reply -> {
                    String outcome = Bytes.str(reply.get(0));
                    if (!outcome.equals("OK")) {
                        return new Rescheduled(outcome, null);
                    }
                    return new Rescheduled(
                            outcome,
                            new ScheduleResult(
                                    id,
                                    topic,
                                    JobState.valueOf(Bytes.str(reply.get(1))),
                                    Instant.ofEpochMilli((Long) reply.get(2)),
                                    ScheduleResult.Outcome.REPLACED));
                });
    }

    /** Completes with {@code OK}, {@code NOT_DEAD} or {@code MISSING}. */
    CompletableFuture<String> requeue(String topic, String id) {
        return durable(call(Script.REQUEUE, topic, id, Bytes.of(id)), "requeue")
                .thenApply(reply -> Bytes.str(reply.get(0)));
    }

    // ---- conflict.lua

    /**
     * What a schedule of {@code id} would meet in Redis, as {@code schedule.lua} decides it, without scheduling: the
     * reservation of a job that ended within its idempotency window ({@code KEPT} with how and when it ended), or a job
     * ({@code KEPT} with its state and due time).
     *
     * @return completes with that conflict, or with null when the id is free
     */
    CompletableFuture<ScheduleResult> conflict(String topic, String id) {
        // The reply is schedule.lua's for onConflict keep: read as a schedule's.
        return call(Script.CONFLICT, topic, id, Bytes.of(id))
                .thenApply(reply -> reply.isEmpty() ? null : scheduled(id, topic, reply));
    }

    // ---- stats.lua, dead.lua

    /** The shard's counts: scheduled, ready, active, dead. */
    CompletableFuture<long[]> stats(String topic, int shard) {
        return call(Script.STATS, topic, shard).thenApply(reply -> {
            long[] counts = new long[4];
            for (int i = 0; i < 4; i++) {
                counts[i] = (Long) reply.get(i);
            }
            return counts;
        });
    }

    /** A dead letter and when it died (epoch ms). */
    record DeadLetter(long diedAtMs, JobInfo info) {}

    /** The shard's first {@code count} dead letters, oldest death first. */
    CompletableFuture<List<DeadLetter>> dead(String topic, int shard, int count) {
        return call(Script.DEAD, topic, shard, Bytes.of(count)).thenApply(reply -> {
            List<DeadLetter> out = new ArrayList<>();
            for (int i = 0; i + 3 < reply.size(); i += 4) {
                byte[] raw = (byte[]) reply.get(i + 2);
                if (raw.length == 0) {
                    continue;
                }
                String id = Bytes.str(reply.get(i));
                JobRecord record = JobRecord.decode(raw);
                String error = Bytes.str(reply.get(i + 3));
                out.add(new DeadLetter((Long) reply.get(i + 1), info(topic, id, JobState.DEAD, record, error, null)));
            }
            return out;
        });
    }

    private static JobInfo info(String topic, String id, JobState state, JobRecord r, String error, Instant lease) {
        return info(topic, id, state, r, error, lease, null, null);
    }

    private static JobInfo info(
            String topic,
            String id,
            JobState state,
            JobRecord r,
            String error,
            Instant lease,
            Instant completedAt,
            byte[] result) {
        return new JobInfo(
                id,
                topic,
                state,
                Instant.ofEpochMilli(r.dueMs()),
                // An acked delivery, like one in progress, is not yet counted in the record's failed attempts.
                r.attempt(state == JobState.ACTIVE || state == JobState.COMPLETED),
                r.maxAttempts(),
                r.backoffOrDefault(Backoff.DEFAULT),
                Duration.ofMillis(r.leaseMs()),
                r.callbackUri(),
                r.payload(),
                error.isEmpty() ? null : error,
                lease,
                r.expiresAtMs() == 0 ? null : Instant.ofEpochMilli(r.expiresAtMs()),
                r.onExpiry(),
                r.failureCallbackUrl().isEmpty() ? null : URI.create(r.failureCallbackUrl()),
                completedAt,
                result,
                r.priority());
    }

    // ---- config.lua

    /** The topic's flow control as stored on one shard: rate per second, burst, cap; each empty when off. */
    CompletableFuture<List<String>> readConfig(String topic, int shard) {
        return call(Script.CONFIG, topic, shard, Bytes.of("get")).thenApply(Bytes::strings);
    }

    /** Stores the topic's flow control on one shard, which works out its share of it, and wakes both lanes. */
    CompletableFuture<List<Object>> writeConfig(String topic, int shard, double ratePerSecond, int burst, int cap) {
        return durable(
                call(
                        Script.CONFIG,
                        topic,
                        shard,
                        Bytes.of("set"),
                        Bytes.of(Double.toString(ratePerSecond)),
                        Bytes.of(burst),
                        Bytes.of(cap),
                        Bytes.of(layout.shards())),
                "configure topic");
    }

    // ---- plumbing

    /** The write, confirmed by the replicas the builder asked for (WAIT) before it completes. */
    private CompletableFuture<List<Object>> durable(CompletableFuture<List<Object>> write, String what) {
        if (settings.replicasToWait() == 0) {
            return write;
        }
        return write.thenCompose(reply -> redis.waitForReplicas(
                        settings.replicasToWait(), settings.replicaWaitTimeout().toMillis(), what)
                .thenApply(ignored -> reply));
    }

    /** A call of the shard that holds job {@code id}. */
    CompletableFuture<List<Object>> call(Script script, String topic, String id, byte[]... scriptArgs) {
        return call(script, topic, layout.shardOf(id), scriptArgs);
    }

    /** A call of one shard of a topic: the shard's keys, then its wake channel and index, then the script's own. */
    CompletableFuture<List<Object>> call(Script script, String topic, int shard, byte[]... scriptArgs) {
        byte[][] keys = keyCache.computeIfAbsent(topic + "\u0000" + shard, k -> layout.shardKeys(topic, shard));
        byte[][] args = new byte[scriptArgs.length + 2][];
        args[0] = Bytes.of(layout.wakeChannel(topic));
        args[1] = historyFlag.isEmpty() ? Bytes.of(shard) : Bytes.of(shard + historyFlag);
        System.arraycopy(scriptArgs, 0, args, 2, scriptArgs.length);
        try {
            return redis.run(script, keys, args);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
