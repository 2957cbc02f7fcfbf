package io.hourglass.internal;

import io.hourglass.Inspector;
import io.hourglass.JobState;
import io.hourglass.validation.Names;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The inspector's actions on many jobs: requeue or delete dead letters (all of a topic, or by id) and purge a state.
 * Each works in chunks of {@link Inspector#CHUNK} jobs per script call, shard after shard, and calls again until a call
 * finds less than a chunk, so no call holds Redis long. Thread-safe.
 */
final class BulkActions {
    private static final int CHUNK = Inspector.CHUNK;

    private final ShardCalls calls;

    BulkActions(ShardCalls calls) {
        this.calls = calls;
    }

    /** Requeues ({@code action} "requeue") or deletes ("delete") every dead letter of the topic; returns how many. */
    long allDead(String topic, String action) {
        Names.checkTopic(topic);
        long done = 0;
        for (int shard = 0; shard < calls.shards(); shard++) {
            while (true) {
                List<Object> reply = calls.onShard(
                        Script.DEAD_BULK, topic, shard, action + " dead letters", Bytes.of(action), Bytes.of(CHUNK));
                long chunk = (Long) reply.get(0);
                done += chunk;
                // A chunk that found nothing to do, or emptied the shard, ends it; jobs that die meanwhile may be
                // taken too, but never keep this loop going past an empty chunk.
                if (chunk == 0 || (Long) reply.get(1) == 0) {
                    break;
                }
            }
        }
        return done;
    }

    /** Requeues or deletes the dead letters among {@code ids}; returns how many were dead. */
    long deadByIds(String topic, Collection<String> ids, String action) {
        Names.checkTopic(topic);
        if (ids == null || ids.isEmpty()) {
            throw new IllegalArgumentException("ids: must hold at least one id, got " + ids);
        }
        Map<Integer, List<String>> byShard = new TreeMap<>();
        Set<String> distinct = new LinkedHashSet<>();
        for (String id : ids) {
            if (id == null) {
                throw new IllegalArgumentException("ids: must not hold null");
            }
            Names.checkId(id);
            distinct.add(id);
        }
        for (String id : distinct) {
            byShard.computeIfAbsent(calls.shardOf(id), s -> new ArrayList<>()).add(id);
        }
        long done = 0;
        for (Map.Entry<Integer, List<String>> e : byShard.entrySet()) {
            List<String> shardIds = e.getValue();
            for (int from = 0; from < shardIds.size(); from += CHUNK) {
                List<String> chunk = shardIds.subList(from, Math.min(from + CHUNK, shardIds.size()));
                byte[][] args = new byte[2 + chunk.size()][];
                args[0] = Bytes.of(action);
                args[1] = Bytes.of(CHUNK);
                for (int i = 0; i < chunk.size(); i++) {
                    args[2 + i] = Bytes.of(chunk.get(i));
                }
                done += (Long) calls.onShard(Script.DEAD_BULK, topic, e.getKey(), action + " dead letters", args)
                        .get(0);
            }
        }
        return done;
    }

    /** See {@link Inspector#purge}. */
    long purge(String topic, JobState state) {
        Names.checkTopic(topic);
        JobListing.checkState(state);
        long done = 0;
        for (int shard = 0; shard < calls.shards(); shard++) {
            while (true) {
                List<Object> reply =
                        calls.onShard(Script.PURGE, topic, shard, "purge", Bytes.of(state.name()), Bytes.of(CHUNK));
                done += (Long) reply.get(0);
                if ((Long) reply.get(1) == 0) {
                    break;
                }
            }
        }
        return done;
    }
}
