package io.hourglass.it;

import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.function.Function;

/** Plain commands on one Redis node, on a connection of their own, for tests that look at or change keys directly. */
final class RawRedis {
    private RawRedis() {}

    /** Runs {@code commands} on a fresh connection to {@code node} and returns what they return. */
    static <T> T call(RedisServerProcess node, Function<RedisCommands<String, String>, T> commands) {
        RedisClient client = RedisClient.create(node.uri());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            return commands.apply(c.sync());
        } finally {
            client.shutdown();
        }
    }

    /** {@code HGET key field} on {@code node}; null when the field does not exist. */
    static String hget(RedisServerProcess node, String key, String field) {
        return call(node, r -> r.hget(key, field));
    }
}
