package io.hourglass.internal;

import io.hourglass.TopicConfig;
import io.hourglass.validation.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads and writes a topic's flow control ({@link TopicConfig}) through {@code config.lua}: the same settings on every
 * shard of the topic, each of which enforces its share inside its claims. Stateless; thread-safe.
 */
final class TopicConfigs {
    private final RedisGateway redis;
    private final KeyLayout layout;
    private final Scripts scripts;

    TopicConfigs(RedisGateway redis, KeyLayout layout, Scripts scripts) {
        this.redis = redis;
        this.layout = layout;
        this.scripts = scripts;
    }

    /** The topic's configuration as its first shard holds it; {@link TopicConfig#UNLIMITED} when none. */
    TopicConfig read(String topic) {
        Names.checkTopic(topic);
        List<String> f = redis.await(scripts.readConfig(topic, 0), "read topic config");
        return new TopicConfig(
                f.get(0).isEmpty() ? 0 : Double.parseDouble(f.get(0)),
                f.get(1).isEmpty() ? 0 : Integer.parseInt(f.get(1)),
                f.get(2).isEmpty() ? 0 : Integer.parseInt(f.get(2)));
    }

    /**
     * Stores the configuration on every shard, the default burst resolved.
     *
     * @throws IllegalArgumentException when a burst or cap above 0 is below the shard count: a shard's share would be
     *     below one, and a claim takes whole tokens and places
     */
    void write(String topic, TopicConfig config) {
        Names.checkTopic(topic);
        if (config == null) {
            throw new IllegalArgumentException("config: must not be null");
        }
        int shards = layout.shards();
        int burst = config.burst();
        if (config.limitsRate() && burst == 0) {
            burst = (int) Math.max(shards, Math.min(TopicConfig.MAX_LIMIT, Math.ceil(config.ratePerSecond())));
        }
        if (config.limitsRate() && burst < shards) {
            throw new IllegalArgumentException("burst: must be at least the namespace's shard count " + shards
                    + " (each shard holds its share of the bucket), got " + burst);
        }
        if (config.capsConcurrency() && config.maxConcurrency() < shards) {
            throw new IllegalArgumentException("maxConcurrency: must be at least the namespace's shard count " + shards
                    + " (each shard holds its share of the places), got " + config.maxConcurrency());
        }
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>(shards);
        for (int shard = 0; shard < shards; shard++) {
            calls.add(scripts.writeConfig(topic, shard, config.ratePerSecond(), burst, config.maxConcurrency()));
        }
        for (CompletableFuture<List<Object>> call : calls) {
            redis.await(call, "configure topic");
        }
    }
}
