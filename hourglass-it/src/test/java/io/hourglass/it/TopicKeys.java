package io.hourglass.it;

import io.hourglass.StorageFormat;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads a topic's keys on every shard, on a plain connection to the test's Redis or cluster. */
final class TopicKeys {
    private TopicKeys() {}

    /** A read of one shard's keys, given their common prefix. */
    interface ShardRead {
        long read(RedisClusterCommands<String, String> redis, String prefix);
    }

    /**
     * The completion events of every shard's history stream of {@code topic}, each as the fields a one-event entry has
     * ({@code id}, {@code outcome}, {@code attempts}, {@code error}, {@code payload}, ...; text, UTF-8), decoded from
     * the entries that hold a script call's events each.
     */
    static List<Map<String, String>> events(Class<?> suite, HourglassFactory factory, String topic) {
        List<Map<String, String>> events = new ArrayList<>();
        sum(suite, factory, topic, (redis, prefix) -> {
            for (StreamMessage<String, String> m : redis.xrange(prefix + "events", Range.create("-", "+"))) {
                Map<String, byte[]> fields = new HashMap<>();
                m.getBody().forEach((k, v) -> fields.put(k, v.getBytes(StandardCharsets.UTF_8)));
                for (StorageFormat.StoredEvent e : StorageFormat.historyEvents(fields)) {
                    events.add(fields(e));
                }
            }
            return 0;
        });
        return events;
    }

    private static Map<String, String> fields(StorageFormat.StoredEvent e) {
        Map<String, String> f = new HashMap<>();
        f.put("id", e.jobId());
        f.put("outcome", e.outcome());
        f.put("attempts", Integer.toString(e.attempts()));
        f.put("maxAttempts", Integer.toString(e.maxAttempts()));
        f.put("due", Long.toString(e.dueMs()));
        f.put("at", Long.toString(e.atMs()));
        f.put("payloadBytes", Integer.toString(e.payloadBytes()));
        if (e.error() != null) {
            f.put("error", e.error());
        }
        if (e.callbackUrl() != null) {
            f.put("callbackUrl", e.callbackUrl());
        }
        if (e.payload() != null) {
            f.put("payload", new String(e.payload(), StandardCharsets.UTF_8));
        }
        return f;
    }

    /**
     * Sums {@code read} over every shard of {@code topic}.
     *
     * @param suite the test class, whose {@link RedisTest} says the shards and whether Redis is a cluster
     */
    static long sum(Class<?> suite, HourglassFactory factory, String topic, ShardRead read) {
        RedisTest config = suite.getAnnotation(RedisTest.class);
        return RawRedis.onTestRedis(suite, factory, redis -> {
            long total = 0;
            for (int shard = 0; shard < config.shards(); shard++) {
                total += read.read(redis, StorageFormat.shardKeyPrefix(factory.namespace(), topic, shard));
            }
            return total;
        });
    }

    /** A read or write of the keys of one shard, given their common prefix. */
    interface ShardCall<T> {
        T call(RedisClusterCommands<String, String> redis, String prefix);
    }

    /** Runs {@code call} on the keys of the shard that holds {@code id} of {@code topic}. */
    static <T> T onShardOf(Class<?> suite, HourglassFactory factory, String topic, String id, ShardCall<T> call) {
        int shard =
                StorageFormat.shardOf(id, suite.getAnnotation(RedisTest.class).shards());
        return RawRedis.onTestRedis(
                suite,
                factory,
                redis -> call.call(redis, StorageFormat.shardKeyPrefix(factory.namespace(), topic, shard)));
    }
}
