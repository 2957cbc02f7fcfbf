package io.hourglass.embedded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Redis Cluster of {@code masters} {@link RedisServerProcess} nodes (no replicas), each on a free port in
 * its own temporary data dir, with the 16384 slots split evenly among them. Thread-safe; close it to stop every
 * node.
 *
 * <pre>{@code
 * try (RedisClusterProcess cluster = RedisClusterProcess.start(3)) {
 *   Hourglass.builder().clusterNodes(cluster.seedUris().toArray(String[]::new)).shards(16).build();
 * }
 * }</pre>
 */
public final class RedisClusterProcess implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisClusterProcess.class);
  private static final int SLOTS = 16384;
  private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(20);

  private final List<RedisServerProcess> nodes;

  private RedisClusterProcess(List<RedisServerProcess> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /**
   * Starts the nodes, assigns the slots, joins them and waits until every node reports {@code cluster_state:ok}.
   *
   * @param masters 1 to 16 master nodes
   * @return the running cluster
   * @throws IOException when a node cannot start
   * @throws IllegalStateException when the cluster does not form within 20 s
   */
  public static RedisClusterProcess start(int masters) throws IOException {
    if (masters < 1 || masters > 16) {
      throw new IllegalArgumentException("masters: must be between 1 and 16, got " + masters);
    }
    List<RedisServerProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < masters; i++) {
        nodes.add(RedisServerProcess.builder()
            .arg("cluster-enabled", "yes")
            .arg("cluster-config-file", "nodes.conf")
            .arg("cluster-node-timeout", "2000")
            .start());
      }
      RedisClusterProcess cluster = new RedisClusterProcess(nodes);
      cluster.form();
      log.info("Redis Cluster of {} masters formed: {}", masters, cluster.seedUris());
      return cluster;
    } catch (IOException | RuntimeException e) {
      nodes.forEach(RedisServerProcess::close);
      throw e;
    }
  }

  private void form() {
    for (int i = 0; i < nodes.size(); i++) {
      int from = i * SLOTS / nodes.size();
      int to = (i + 1) * SLOTS / nodes.size();
      int[] slots = IntStream.range(from, to).toArray();
      withNode(nodes.get(i), redis -> redis.clusterAddSlots(slots));
    }
    RedisServerProcess first = nodes.get(0);
    for (RedisServerProcess node : nodes.subList(1, nodes.size())) {
      withNode(node, redis -> redis.clusterMeet(first.host(), first.port()));
    }
    long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
    while (!formed()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the Redis Cluster did not reach cluster_state:ok within "
            + FORMATION_TIMEOUT.toSeconds() + " s");
      }
      sleep(50);
    }
  }

  private boolean formed() {
    for (RedisServerProcess node : nodes) {
      String info = withNode(node, RedisCommands::clusterInfo);
      if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + nodes.size() + "\r")) {
        return false;
      }
    }
    return true;
  }

  private static <T> T withNode(RedisServerProcess node, java.util.function.Function<RedisCommands<String, String>, T> f) {
    RedisClient client = RedisClient.create(node.uri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return f.apply(c.sync());
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while forming the cluster", e);
    }
  }

  /**
   * Moves one slot, with its keys, to another node, the way {@code redis-cli --cluster reshard} does: the target
   * imports, the source migrates, the keys move in batches by {@code MIGRATE}, then every node learns the new
   * owner. Clients see {@code ASK} and {@code TRYAGAIN} replies meanwhile and {@code MOVED} afterwards.
   *
   * @param slot 0 to 16383
   * @param target the index in {@link #nodes()} of the node to move it to
   * @return the number of keys moved
   * @throws IllegalArgumentException when the target already owns the slot
   */
  public synchronized int migrateSlot(int slot, int target) {
    RedisServerProcess to = nodes.get(target);
    RedisServerProcess from = ownerOf(slot);
    if (from == to) {
      throw new IllegalArgumentException("node " + target + " already owns slot " + slot);
    }
    String toId = withNode(to, RedisCommands::clusterMyId);
    String fromId = withNode(from, RedisCommands::clusterMyId);
    withNode(to, r -> r.clusterSetSlotImporting(slot, fromId));
    withNode(from, r -> r.clusterSetSlotMigrating(slot, toId));
    int moved = 0;
    while (true) {
      List<String> keys = withNode(from, r -> r.clusterGetKeysInSlot(slot, 100));
      if (keys.isEmpty()) {
        break;
      }
      withNode(from, r -> r.migrate(to.host(), to.port(), 0, 5000,
          io.lettuce.core.MigrateArgs.Builder.keys(keys)));
      moved += keys.size();
    }
    for (RedisServerProcess node : nodes) {
      withNode(node, r -> r.clusterSetSlotNode(slot, toId));
    }
    log.info("moved slot {} ({} keys) from {} to {}", slot, moved, from.uri(), to.uri());
    return moved;
  }

  /**
   * @param slot 0 to 16383
   * @return the node that owns the slot now, by the first node's view of the cluster
   */
  public synchronized RedisServerProcess ownerOf(int slot) {
    String view = withNode(nodes.get(0), RedisCommands::clusterNodes);
    for (RedisServerProcess node : nodes) {
      String id = withNode(node, RedisCommands::clusterMyId);
      for (String line : view.split("\n")) {
        String[] fields = line.trim().split(" ");
        if (fields.length > 8 && fields[0].equals(id) && ownsSlot(fields, slot)) {
          return node;
        }
      }
    }
    throw new IllegalStateException("no node owns slot " + slot);
  }

  /** Reads the slot ranges of a CLUSTER NODES line (fields 8 on; "[...]" entries are migrations in progress). */
  private static boolean ownsSlot(String[] fields, int slot) {
    for (int i = 8; i < fields.length; i++) {
      if (fields[i].startsWith("[")) {
        continue;
      }
      String[] bounds = fields[i].split("-");
      if (slot >= Integer.parseInt(bounds[0]) && slot <= Integer.parseInt(bounds[bounds.length - 1])) {
        return true;
      }
    }
    return false;
  }

  /** @return the nodes, in slot order; never empty */
  public List<RedisServerProcess> nodes() {
    return nodes;
  }

  /** @return {@code redis://host:port} of every node, usable as cluster seed URIs */
  public List<String> seedUris() {
    return nodes.stream().map(RedisServerProcess::uri).toList();
  }

  /** Stops every node and deletes their data dirs. Idempotent. */
  @Override
  public void close() {
    nodes.forEach(RedisServerProcess::close);
  }
}
