package io.hourglass.it;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Plain commands on the test's Redis, on a connection of their own, for tests that look at or change keys directly.
 * Commands on one node share one client that lives as long as the JVM (its threads are daemons); a cluster's client is
 * made for each call, as it is bound to its seed nodes, and shut down with a bounded wait: Lettuce's own
 * {@code shutdown()} waits without a bound and, rarely, forever (lettuce issue 2278, a client per event).
 */
final class RawRedis {
    private static final RedisClient NODE_CLIENT = RedisClient.create();
    private static final long SHUTDOWN_WAIT_SECONDS = 5;

    private RawRedis() {}

    /** Runs {@code commands} on a new connection to {@code node} and returns what they return. */
    static <T> T call(RedisServerProcess node, Function<RedisCommands<String, String>, T> commands) {
        return call(node.uri(), commands);
    }

    /** Runs {@code commands} on a new connection to the Redis at {@code uri} and returns what they return. */
    static <T> T call(String uri, Function<RedisCommands<String, String>, T> commands) {
        try (StatefulRedisConnection<String, String> c = NODE_CLIENT.connect(RedisURI.create(uri))) {
            return commands.apply(c.sync());
        }
    }

    /** A new connection to {@code node}, for a test that needs several at once; the caller closes it. */
    static StatefulRedisConnection<String, String> connect(RedisServerProcess node) {
        return NODE_CLIENT.connect(RedisURI.create(node.uri()));
    }

    /**
     * Runs {@code commands} on the test's Redis: its cluster when {@code suite}'s {@link RedisTest} asks for cluster
     * masters, else its one server.
     */
    static <T> T onTestRedis(
            Class<?> suite, HourglassFactory factory, Function<RedisClusterCommands<String, String>, T> commands) {
        RedisTest config = suite.getAnnotation(RedisTest.class);
        if (config.clusterMasters() == 0) {
            return call(factory.redisUri(), commands::apply);
        }
        RedisClusterClient client = RedisClusterClient.create(factory.redisUri());
        try (var c = client.connect()) {
            return commands.apply(c.sync());
        } finally {
            shutDown(client);
        }
    }

    /** {@code HGET key field} on {@code node}; null when the field does not exist. */
    static String hget(RedisServerProcess node, String key, String field) {
        return call(node, r -> r.hget(key, field));
    }

    /** Shuts {@code client} down, waiting at most a few seconds. */
    private static void shutDown(AbstractRedisClient client) {
        try {
            client.shutdownAsync(0, 1, TimeUnit.SECONDS).get(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            System.err.println("a test's Redis client did not shut down within " + SHUTDOWN_WAIT_SECONDS + " s: " + e);
        }
    }
}
