package io.hourglass.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import java.util.function.Function;

/**
 * The test kit's own commands (the flush before each test, the invariant check after it), each on a short connection of
 * one client that lives as long as the JVM. A client per command, as before, started and shut down threads of its own
 * twice per test and node, and Lettuce's {@code shutdown()} waits without a bound and, rarely, forever (lettuce issue
 * 2278, a client per event). The client's threads are daemons, so it needs no shutdown. Thread-safe.
 */
final class AdminRedis {
    private static final RedisClient CLIENT = RedisClient.create();

    private AdminRedis() {}

    /** Runs {@code commands} on a new connection to {@code uri} and closes it. */
    static <K, V, T> T call(String uri, RedisCodec<K, V> codec, Function<RedisCommands<K, V>, T> commands) {
        try (StatefulRedisConnection<K, V> c = CLIENT.connect(codec, RedisURI.create(uri))) {
            return commands.apply(c.sync());
        }
    }
}
