package io.hourglass.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The inspector's way of calling its scripts: on one shard of a topic, or on every shard at once, waiting for each
 * reply with the command timeout (a failure surfaces as the exception {@link RedisGateway#await} throws). Thread-safe.
 */
final class ShardCalls {
    private final Scripts scripts;
    private final RedisGateway redis;
    private final KeyLayout layout;

    ShardCalls(ClientContext context, Scripts scripts) {
        this.scripts = scripts;
        this.redis = context.redis();
        this.layout = context.layout();
    }

    /** The number of shards of each topic. */
    int shards() {
        return layout.shards();
    }

    /** The shard that holds job {@code id}. */
    int shardOf(String id) {
        return layout.shardOf(id);
    }

    /** Runs a script on one shard and waits for its reply; {@code what} names the call in errors. */
    List<Object> onShard(Script script, String topic, int shard, String what, byte[]... args) {
        return redis.await(scripts.call(script, topic, shard, args), what);
    }

    /** Runs a script on every shard of the topic at once and waits for each reply, in shard order. */
    List<List<Object>> onEveryShard(Script script, String topic, String what, byte[]... args) {
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>(layout.shards());
        for (int shard = 0; shard < layout.shards(); shard++) {
            calls.add(scripts.call(script, topic, shard, args));
        }
        List<List<Object>> replies = new ArrayList<>(calls.size());
        for (CompletableFuture<List<Object>> c : calls) {
            replies.add(redis.await(c, what));
        }
        return replies;
    }
}
