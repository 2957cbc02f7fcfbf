package io.hourglass.it;

import io.hourglass.embedded.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
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
    RedisClient client = RedisClient.create(node.uri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      for (int i = 0; i < 10_000; i++) {
        String name = prefix + i;
        try {
          c.sync().exists(keyOf.apply(name));
          return name;
        } catch (RedisCommandExecutionException moved) {
          // Another master serves this key: try the next name.
        }
      }
      throw new IllegalStateException("no name of prefix " + prefix + " falls on " + node.uri());
    } finally {
      client.shutdown();
    }
  }
}
