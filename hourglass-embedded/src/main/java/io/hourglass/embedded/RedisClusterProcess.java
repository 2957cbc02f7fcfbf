package io.hourglass.embedded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Redis Cluster of {@code masters} {@link RedisServerProcess} nodes, each on a free port in its own temporary
 * data dir, with the 16384 slots split evenly among them, and optionally replicas of each master that a
 * {@link #failover} can promote. Thread-safe; close it to stop every node.
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
    /** How long {@link #close} waits for the admin client's shutdown, which Lettuce itself does not bound. */
    private static final Duration ADMIN_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    private final List<RedisServerProcess> nodes;
    private final List<RedisServerProcess> replicas;
    /**
     * The one client of every admin command, each on a short connection of its own: a wait for a failover polls every
     * node every 50 ms, and a client per command made hundreds of clients per failover, each with threads of its own to
     * start and a shutdown to wait for. Lettuce's {@code shutdown()} waits without a bound and, rarely, forever
     * (lettuce issue 2278, a client per event); one such wait hung a whole test run.
     */
    private final RedisClient admin = RedisClient.create();

    private RedisClusterProcess(List<RedisServerProcess> nodes, List<RedisServerProcess> replicas) {
        this.nodes = List.copyOf(nodes);
        this.replicas = List.copyOf(replicas);
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
        return start(masters, 0);
    }

    /**
     * Starts the nodes, assigns the slots to the masters, joins them, makes each replica follow its master and waits
     * until every node reports {@code cluster_state:ok} and every replica's link to its master is up.
     *
     * @param masters 1 to 16 master nodes
     * @param replicasPerMaster 0 to 2 replicas of each master
     * @return the running cluster
     * @throws IOException when a node cannot start
     * @throws IllegalArgumentException naming {@code masters} or {@code replicasPerMaster} when out of range
     * @throws IllegalStateException when the cluster does not form within 20 s
     */
    public static RedisClusterProcess start(int masters, int replicasPerMaster) throws IOException {
        return start(masters, replicasPerMaster, UnaryOperator.identity());
    }

    /**
     * As {@link #start(int, int)}, with each node's server options first passed through {@code nodeOptions}: for
     * example {@code b -> b.ownSession(true)}, as the benchmarks start every Redis, or {@code b -> b.arg("hz", "100")}.
     * The cluster's own directives ({@code cluster-enabled}, {@code cluster-config-file}, {@code cluster-node-timeout})
     * come after those on the command line, so they win.
     *
     * @param masters 1 to 16 master nodes
     * @param replicasPerMaster 0 to 2 replicas of each master
     * @param nodeOptions applied to a fresh {@link RedisServerProcess#builder()} for each node, masters and replicas
     *     alike; returns the builder to start the node from, never null
     * @return the running cluster
     * @throws IOException when a node cannot start
     * @throws IllegalArgumentException naming {@code masters} or {@code replicasPerMaster} when out of range, or
     *     {@code nodeOptions} when it is null or returns null
     * @throws IllegalStateException when the cluster does not form within 20 s
     */
    public static RedisClusterProcess start(
            int masters, int replicasPerMaster, UnaryOperator<RedisServerProcess.Builder> nodeOptions)
            throws IOException {
        if (nodeOptions == null) {
            throw new IllegalArgumentException("nodeOptions: must not be null");
        }
        if (masters < 1 || masters > 16) {
            throw new IllegalArgumentException("masters: must be between 1 and 16, got " + masters);
        }
        if (replicasPerMaster < 0 || replicasPerMaster > 2) {
            throw new IllegalArgumentException("replicasPerMaster: must be between 0 and 2, got " + replicasPerMaster);
        }
        List<RedisServerProcess> nodes = new ArrayList<>();
        List<RedisServerProcess> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                nodes.add(startNode(nodeOptions));
            }
            for (int i = 0; i < masters * replicasPerMaster; i++) {
                replicas.add(startNode(nodeOptions));
            }
            RedisClusterProcess cluster = new RedisClusterProcess(nodes, replicas);
            try {
                cluster.form();
            } catch (RuntimeException e) {
                cluster.shutDownAdmin();
                throw e;
            }
            log.info(
                    "Redis Cluster of {} masters and {} replicas formed: {}",
                    masters,
                    replicas.size(),
                    cluster.seedUris());
            return cluster;
        } catch (IOException | RuntimeException e) {
            nodes.forEach(RedisServerProcess::close);
            replicas.forEach(RedisServerProcess::close);
            throw e;
        }
    }

    private static RedisServerProcess startNode(UnaryOperator<RedisServerProcess.Builder> nodeOptions)
            throws IOException {
        RedisServerProcess.Builder options = nodeOptions.apply(RedisServerProcess.builder());
        if (options == null) {
            throw new IllegalArgumentException("nodeOptions: returned null instead of a builder");
        }
        return options.arg("cluster-enabled", "yes")
                .arg("cluster-config-file", "nodes.conf")
                .arg("cluster-node-timeout", "2000")
                .start();
    }

    private List<RedisServerProcess> allNodes() {
        List<RedisServerProcess> all = new ArrayList<>(nodes);
        all.addAll(replicas);
        return all;
    }

    private void form() {
        for (int i = 0; i < nodes.size(); i++) {
            int from = i * SLOTS / nodes.size();
            int to = (i + 1) * SLOTS / nodes.size();
            int[] slots = IntStream.range(from, to).toArray();
            withNode(nodes.get(i), redis -> redis.clusterAddSlots(slots));
        }
        RedisServerProcess first = nodes.get(0);
        List<RedisServerProcess> all = allNodes();
        for (RedisServerProcess node : all.subList(1, all.size())) {
            withNode(node, redis -> redis.clusterMeet(first.host(), first.port()));
        }
        awaitState("every node to know every other", () -> all.stream().allMatch(node -> {
            String info = withNode(node, RedisCommands::clusterInfo);
            return info.contains("cluster_known_nodes:" + all.size() + "\r");
        }));
        for (int i = 0; i < replicas.size(); i++) {
            String masterId = withNode(nodes.get(i % nodes.size()), RedisCommands::clusterMyId);
            withNode(replicas.get(i), redis -> redis.clusterReplicate(masterId));
        }
        awaitState("cluster_state:ok on every node, every replica linked to its master", this::formed);
    }

    private List<RedisServerProcess> runningNodes() {
        return allNodes().stream().filter(RedisServerProcess::isRunning).toList();
    }

    private boolean formed() {
        for (RedisServerProcess node : runningNodes()) {
            if (!withNode(node, RedisCommands::clusterInfo).contains("cluster_state:ok")) {
                return false;
            }
        }
        for (RedisServerProcess node : runningNodes()) {
            if (!isMaster(node) && !withNode(node, r -> r.info("replication")).contains("master_link_status:up")) {
                return false;
            }
        }
        return true;
    }

    private static void awaitState(String what, java.util.function.BooleanSupplier reached) {
        long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
        while (!reached.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the Redis Cluster did not reach " + what + " within " + FORMATION_TIMEOUT.toSeconds() + " s");
            }
            sleep(50);
        }
    }

    /**
     * Promotes a replica in place of its master the way an operator's {@code CLUSTER FAILOVER} does: the master stops
     * accepting writes, the replica catches up with it, takes over its slots, and the old master becomes its replica.
     * Clients see {@code MOVED} to the new master afterwards. Returns when every node agrees.
     *
     * @param replica a node of this cluster that is a replica now: one of {@link #replicas()}, or a master that an
     *     earlier failover demoted
     * @throws IllegalArgumentException when {@code replica} is not a replica of this cluster now
     * @throws IllegalStateException when the failover does not complete within 20 s
     */
    public synchronized void failover(RedisServerProcess replica) {
        if (!allNodes().contains(replica) || isMaster(replica)) {
            throw new IllegalArgumentException("replica: " + replica.uri() + " is not a replica of this cluster now");
        }
        String oldMasterId = withNode(replica, RedisClusterProcess::masterIdOf);
        withNode(replica, r -> r.clusterFailover(false));
        awaitState(
                "the end of the failover of " + replica.uri(),
                () -> isMaster(replica)
                        && runningNodes().stream()
                                .filter(n -> id(n).equals(oldMasterId))
                                .noneMatch(this::isMaster)
                        && formed());
        log.info("{} took over from its master", replica.uri());
    }

    /**
     * Kills a master with SIGKILL and waits until the cluster has promoted one of its replicas on its own (after
     * {@code cluster-node-timeout}, 2 s here) and every running node reports {@code cluster_state:ok}. Writes the
     * master had not replicated yet are lost, as in a real crash.
     *
     * @param master a running master that has at least one replica
     * @return the replica that took over
     * @throws IllegalArgumentException when {@code master} is not a running master of this cluster
     * @throws IllegalStateException when no replica takes over within 20 s
     */
    public synchronized RedisServerProcess crash(RedisServerProcess master) {
        if (!allNodes().contains(master) || !master.isRunning() || !isMaster(master)) {
            throw new IllegalArgumentException("master: " + master.uri() + " is not a running master of this cluster");
        }
        String masterId = id(master);
        List<RedisServerProcess> followers = runningNodes().stream()
                .filter(n -> n != master && masterId.equals(withNode(n, RedisClusterProcess::masterIdOrNull)))
                .toList();
        master.kill();
        awaitState(
                "a replica's takeover from crashed " + master.uri(),
                () -> followers.stream().anyMatch(this::isMaster) && formed());
        RedisServerProcess successor =
                followers.stream().filter(this::isMaster).findFirst().orElseThrow();
        log.info("{} took over from crashed {}", successor.uri(), master.uri());
        return successor;
    }

    private static String masterIdOf(RedisCommands<String, String> replica) {
        String id = masterIdOrNull(replica);
        if (id == null) {
            throw new IllegalStateException("a replica that does not know its own master");
        }
        return id;
    }

    /** The node id of the master this node follows, from its own line of CLUSTER NODES; null for a master. */
    private static String masterIdOrNull(RedisCommands<String, String> node) {
        String myId = node.clusterMyId();
        for (String line : node.clusterNodes().split("\n")) {
            String[] fields = line.trim().split(" ");
            if (fields.length > 3 && fields[0].equals(myId)) {
                return "-".equals(fields[3]) ? null : fields[3];
            }
        }
        return null;
    }

    private String id(RedisServerProcess node) {
        return withNode(node, RedisCommands::clusterMyId);
    }

    private boolean isMaster(RedisServerProcess node) {
        return "master".equals(withNode(node, r -> String.valueOf(r.role().get(0))));
    }

    /** @return {@code redis://host:port} of the running nodes that are masters now, failovers and crashes included */
    public synchronized List<String> masterUris() {
        return runningNodes().stream()
                .filter(this::isMaster)
                .map(RedisServerProcess::uri)
                .toList();
    }

    private <T> T withNode(RedisServerProcess node, Function<RedisCommands<String, String>, T> f) {
        try (StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(node.uri()))) {
            return f.apply(c.sync());
        }
    }

    private void shutDownAdmin() {
        try {
            admin.shutdownAsync(0, 1, TimeUnit.SECONDS).get(ADMIN_SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn(
                    "the cluster's admin client did not shut down within {} s; going on",
                    ADMIN_SHUTDOWN_TIMEOUT.toSeconds(),
                    e);
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
     * imports, the source migrates, the keys move in batches by {@code MIGRATE}, then every node learns the new owner.
     * Clients see {@code ASK} and {@code TRYAGAIN} replies meanwhile and {@code MOVED} afterwards.
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
            withNode(
                    from,
                    r -> r.migrate(to.host(), to.port(), 0, 5000, io.lettuce.core.MigrateArgs.Builder.keys(keys)));
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
     * @return the node that owns the slot now, by the first running node's view of the cluster
     */
    public synchronized RedisServerProcess ownerOf(int slot) {
        List<RedisServerProcess> running = runningNodes();
        String view = withNode(running.get(0), RedisCommands::clusterNodes);
        for (RedisServerProcess node : running) {
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

    /** @return the nodes started as masters, in slot order; never empty. A {@link #failover} may have demoted one. */
    public List<RedisServerProcess> nodes() {
        return nodes;
    }

    /**
     * @return the nodes started as replicas: replica {@code i} follows master {@code i % masters} of {@link #nodes()}
     *     until a {@link #failover}; empty when started without replicas
     */
    public List<RedisServerProcess> replicas() {
        return replicas;
    }

    /** @return {@code redis://host:port} of every node, masters then replicas, usable as cluster seed URIs */
    public List<String> seedUris() {
        return allNodes().stream().map(RedisServerProcess::uri).toList();
    }

    /** Stops every node and deletes their data dirs. Idempotent. */
    @Override
    public void close() {
        shutDownAdmin();
        allNodes().forEach(RedisServerProcess::close);
    }
}
