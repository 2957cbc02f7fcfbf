package io.hourglass.it;

import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.function.UnaryOperator;

/** Finds names whose keys a given Redis node serves, without assuming how a test cluster split its slots. */
final class NodeKeys {
    private NodeKeys() {}

    /**
     * The first of {@code prefix} + 0, 1, 2, … whose key {@code node} serves: the first on a standalone server; on a
     * cluster node, the first whose key does not answer MOVED there.
     *
     * @param keyOf the Redis key a name stands for (the identity for plain keys)
     */
    static String firstServedBy(RedisServerProcess node, String prefix, UnaryOperator<String> keyOf) {
        return RawRedis.call(node, redis -> {
            for (int i = 0; i < 10_000; i++) {
                String name = prefix + i;
                if (serves(redis, keyOf.apply(name))) {
                    return name;
                }
            }
            throw new IllegalStateException("no name of prefix " + prefix + " falls on " + node.uri());
        });
    }

    /** Whether {@code node} serves {@code key}: always on a standalone server; on a cluster node, unless MOVED. */
    static boolean serves(RedisServerProcess node, String key) {
        return RawRedis.call(node, redis -> serves(redis, key));
    }

    private static boolean serves(RedisCommands<String, String> redis, String key) {
        try {
            redis.exists(key);
            return true;
        } catch (RedisCommandExecutionException moved) {
            return false;
        }
    }
}
