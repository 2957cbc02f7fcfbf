package io.hourglass.internal;

import io.hourglass.HourglassException;
import io.hourglass.RedisUnavailableException;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.async.RedisSetAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Lettuce connections of one Hourglass instance: one multiplexed command connection (Lettuce pipelines concurrent
 * calls on it) and, unless in polling mode, one pub/sub connection for wake signals. Works with a standalone Redis, a
 * Sentinel-managed one and a Redis Cluster (where each script is routed to the master of its keys' slot). Scripts run
 * as the functions of {@link ScriptLibrary} where every master took the library (Redis 7.0+), else by EVALSHA, falling
 * back to EVAL when Redis has lost its script cache (after a restart or SCRIPT FLUSH).
 */
final class RedisGateway implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisGateway.class);
    /**
     * Replies of a Redis that is restarting, failing over or resharding, or is over {@code maxmemory} (OOM, which
     * passes as memory is freed): worth retrying, like a lost connection.
     */
    private static final List<String> TRANSIENT_ERRORS =
            List.of("LOADING", "READONLY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "NOREPLICAS", "BUSY", "OOM");
    /**
     * Least time between two topology refreshes that failed commands ask for. A refresh reads CLUSTER NODES from the
     * nodes; once a second is cheap, and finds a crashed master's successor within a second of its promotion.
     */
    private static final long TOPOLOGY_REFRESH_INTERVAL_NANOS =
            Duration.ofSeconds(1).toNanos();
    /**
     * Longest wait between two attempts to reconnect. Lettuce's default doubles it up to 30 s, so a Redis back after 25
     * s down was reached again only 9-13 s later, its clients answering "Currently not connected" meanwhile; an attempt
     * a second to a host that refuses costs nothing worth saving.
     */
    private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(1);
    /** The longest {@link #close} waits for each of its steps: a connection's close, the client's shutdown. */
    private static final Duration CLOSE_STEP_TIMEOUT = Duration.ofSeconds(5);
    /** Every script as one Redis Functions library, used where the server takes it (Redis 7.0+). */
    private static final ScriptLibrary LIBRARY = ScriptLibrary.build();

    /** The client's threads and timers, with the reconnect delay capped at {@link #MAX_RECONNECT_DELAY}. */
    private final ClientResources resources = DefaultClientResources.builder()
            .reconnectDelay(Delay.exponential(Duration.ZERO, MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
            .build();

    private final AbstractRedisClient client;
    private final AtomicLong lastTopologyRefresh = new AtomicLong(System.nanoTime() - TOPOLOGY_REFRESH_INTERVAL_NANOS);
    /** Whether scripts run as the library's functions; false on Redis 6.2 or wherever loading it failed. */
    private volatile boolean functions;
    /** Whether a load of the library, after a call found it gone, is under way: one at a time. */
    private final AtomicBoolean reloading = new AtomicBoolean();

    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisScriptingAsyncCommands<byte[], byte[]> scripting;
    private final RedisSetAsyncCommands<byte[], byte[]> sets;
    /** The commands of either kind of connection, for the cold tier's reads of an id's reservation. */
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;

    private final io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]> standalone;
    private final Duration timeout;
    private StatefulRedisPubSubConnection<String, String> pubSub;

    /**
     * @param uris one URI for standalone or Sentinel; for a cluster, one or more seed nodes
     * @param cluster whether {@code uris} are Redis Cluster seed nodes
     * @param timeout command timeout
     * @param trustedCertificates PEM file of certificates to trust for TLS, or null for the JVM's defaults
     */
    public RedisGateway(
            List<RedisURI> uris, boolean cluster, Duration timeout, java.nio.file.Path trustedCertificates) {
        io.lettuce.core.SslOptions ssl = trustedCertificates == null
                ? io.lettuce.core.SslOptions.create()
                : io.lettuce.core.SslOptions.builder()
                        .trustManager(trustedCertificates.toFile())
                        .build();
        this.timeout = timeout;
        // Command timeouts come from TimeoutOptions; the URIs stay as given (a copy would lose a Sentinel list).
        if (cluster) {
            RedisClusterClient clusterClient = RedisClusterClient.create(resources, uris);
            clusterClient.setOptions(ClusterClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(timeout))
                    .sslOptions(ssl)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .enablePeriodicRefresh(Duration.ofSeconds(30))
                            .build())
                    .build());
            StatefulRedisClusterConnection<byte[], byte[]> c =
                    connect(clusterClient, () -> clusterClient.connect(ByteArrayCodec.INSTANCE), uris);
            this.client = clusterClient;
            this.connection = c;
            this.scripting = c.async();
            this.sets = c.async();
            this.commands = c.async();
            this.standalone = null;
        } else {
            RedisClient standalone = RedisClient.create(resources, uris.get(0));
            standalone.setOptions(ClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(timeout))
                    .sslOptions(ssl)
                    .build());
            StatefulRedisConnection<byte[], byte[]> c =
                    connect(standalone, () -> standalone.connect(ByteArrayCodec.INSTANCE), uris);
            this.client = standalone;
            this.connection = c;
            this.scripting = c.async();
            this.sets = c.async();
            this.commands = c.async();
            this.standalone = c.async();
        }
        loadLibrary();
    }

    private <C> C connect(AbstractRedisClient client, java.util.function.Supplier<C> connect, List<RedisURI> uris) {
        try {
            return connect.get();
        } catch (RedisException e) {
            shutDown(client, resources);
            throw new RedisUnavailableException("cannot connect to Redis at " + describe(uris), e);
        }
    }

    private static String describe(List<RedisURI> uris) {
        return uris.stream()
                .map(u -> u.getHost() + ":" + u.getPort())
                .collect(java.util.stream.Collectors.joining(","));
    }

    /**
     * Loads the script library on every master (one on a single Redis), replacing nothing: a library of this name holds
     * these very sources. Leaves {@link #functions} false when any master refuses (Redis 6.2 has no FUNCTION LOAD; an
     * ACL user may lack it), so the scripts then run by EVALSHA as before.
     */
    private void loadLibrary() {
        try {
            if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
                for (RedisClusterNode node : cluster.getPartitions()) {
                    if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                        loadLibrary(cluster.getConnection(node.getNodeId()).async());
                    }
                }
            } else {
                loadLibrary(standalone);
            }
            functions = true;
        } catch (RuntimeException e) {
            functions = false;
            log.info("Scripts run by EVALSHA: a master did not load the script library ({})", e.getMessage());
        }
    }

    private void loadLibrary(RedisClusterAsyncCommands<byte[], byte[]> node) {
        try {
            node.functionLoad(LIBRARY.source()).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!String.valueOf(e.getCause().getMessage()).contains("already exists")) {
                throw new IllegalStateException(e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return the masters that serve slots of a cluster, as the client knows the topology now (at least 1); 1 on one
     *     Redis or Sentinel
     */
    public int masters() {
        if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
            int masters = 0;
            for (RedisClusterNode node : cluster.getPartitions()) {
                if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.hasNoSlots()) {
                    masters++;
                }
            }
            return Math.max(1, masters);
        }
        return 1;
    }

    /** Runs a script; completes with its reply (a list of byte[], Long and nested lists). */
    public CompletableFuture<List<Object>> run(Script script, byte[][] keys, byte[]... args) {
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        if (functions) {
            commands.<List<Object>>fcall(LIBRARY.functionName(script), ScriptOutputType.MULTI, keys, args)
                    .whenComplete((r, e) -> {
                        if (e == null) {
                            result.complete(r);
                        } else if (String.valueOf(unwrap(e).getMessage()).contains("Function not found")) {
                            // A master without the library (a new one, or after FUNCTION FLUSH): this call by
                            // script, and the library loaded again for the next.
                            runByScript(script, keys, args, result);
                            if (reloading.compareAndSet(false, true)) {
                                CompletableFuture.runAsync(() -> {
                                    try {
                                        loadLibrary();
                                    } finally {
                                        reloading.set(false);
                                    }
                                });
                            }
                        } else {
                            fail(result, e, script);
                        }
                    });
            return result;
        }
        runByScript(script, keys, args, result);
        return result;
    }

    private void runByScript(Script script, byte[][] keys, byte[][] args, CompletableFuture<List<Object>> result) {
        scripting
                .<List<Object>>evalsha(script.sha(), ScriptOutputType.MULTI, keys, args)
                .whenComplete((r, e) -> {
                    if (e == null) {
                        result.complete(r);
                    } else if (unwrap(e) instanceof RedisNoScriptException) {
                        scripting
                                .<List<Object>>eval(script.source(), ScriptOutputType.MULTI, keys, args)
                                .whenComplete(completeInto(result, script.fileName()));
                    } else {
                        fail(result, e, script);
                    }
                });
    }

    /** Completes {@code result} with the script's error, translated; a lost node also asks for the topology. */
    private void fail(CompletableFuture<List<Object>> result, Throwable error, Script script) {
        RuntimeException failure = translate(error, script.fileName());
        if (failure instanceof RedisUnavailableException) {
            refreshClusterTopology();
        }
        result.completeExceptionally(failure);
    }

    /**
     * After a command failed for want of a node, asks a cluster client to read the cluster's topology again, at most
     * once a second. Lettuce refreshes by itself on MOVED and ASK, but a crashed master answers nothing: its commands
     * fail while disconnected, and Lettuce's own triggers wait 30 s between refreshes, so without this a failover's new
     * master would stay unknown for up to 30 s. Does nothing on one Redis or Sentinel.
     */
    private void refreshClusterTopology() {
        long last = lastTopologyRefresh.get();
        long now = System.nanoTime();
        if (client instanceof RedisClusterClient cluster
                && now - last >= TOPOLOGY_REFRESH_INTERVAL_NANOS
                && lastTopologyRefresh.compareAndSet(last, now)) {
            cluster.refreshPartitionsAsync().exceptionally(refreshFailure -> null);
        }
    }

    /**
     * Waits until {@code replicas} replicas acknowledged every write this connection made so far (Redis WAIT).
     * Completes exceptionally with {@link RedisUnavailableException} when fewer did within {@code timeoutMs}.
     */
    public CompletableFuture<Void> waitForReplicas(int replicas, long timeoutMs, String what) {
        return standalone
                .waitForReplication(replicas, timeoutMs)
                .toCompletableFuture()
                .handle((acked, e) -> {
                    if (e != null) {
                        throw translate(e, "WAIT after " + what);
                    }
                    if (acked < replicas) {
                        throw new RedisUnavailableException(
                                what + " was applied by the master but only " + acked + " of "
                                        + replicas + " replicas confirmed it within " + timeoutMs
                                        + " ms; retry with the same id and"
                                        + " OnConflict.KEEP",
                                null);
                    }
                    return null;
                });
    }

    public CompletableFuture<Void> addToSet(String key, String member) {
        return sets.sadd(bytes(key), bytes(member)).toCompletableFuture().handle((r, e) -> {
            if (e != null) {
                throw translate(e, "SADD " + key);
            }
            return null;
        });
    }

    public boolean isMember(String key, String member) {
        return await(sets.sismember(bytes(key), bytes(member)), "SISMEMBER " + key);
    }

    public Set<String> members(String key) {
        return await(
                sets.smembers(bytes(key)).toCompletableFuture().thenApply(set -> {
                    java.util.TreeSet<String> out = new java.util.TreeSet<>();
                    set.forEach(b -> out.add(new String(b, StandardCharsets.UTF_8)));
                    return (Set<String>) out;
                }),
                "SMEMBERS " + key);
    }

    /** Subscribes to channels by prefix pattern; {@code listener} gets (channel, message) on a Lettuce thread. */
    public synchronized void subscribe(String pattern, BiConsumer<String, String> listener) {
        if (pubSub == null) {
            try {
                pubSub = client instanceof RedisClusterClient
                        ? ((RedisClusterClient) client).connectPubSub()
                        : ((RedisClient) client).connectPubSub();
            } catch (RuntimeException e) {
                throw translate(e, "connecting for wake signals");
            }
        }
        pubSub.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String pattern, String channel, String message) {
                listener.accept(channel, message);
            }
        });
        try {
            pubSub.sync().psubscribe(pattern);
        } catch (RuntimeException e) {
            throw translate(e, "PSUBSCRIBE " + pattern + " (an ACL user needs the channel pattern " + pattern + ")");
        }
    }

    /** Blocks for a future's result with the command timeout, translating failures. */
    public <T> T await(CompletionStage<T> stage, String what) {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis() * 2, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisUnavailableException("interrupted while waiting for Redis: " + what, e);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), what);
        } catch (TimeoutException e) {
            throw new RedisUnavailableException(
                    "Redis did not answer within " + timeout.toMillis() + " ms: " + what, e);
        }
    }

    /** Turns a Lettuce failure into the exception our callers see. */
    public static RuntimeException translate(Throwable e, String what) {
        Throwable cause = unwrap(e);
        if (cause instanceof HourglassException || cause instanceof IllegalArgumentException) {
            return (RuntimeException) cause;
        }
        if (cause instanceof RedisCommandExecutionException) {
            String message = String.valueOf(cause.getMessage());
            if (TRANSIENT_ERRORS.stream().anyMatch(message::startsWith)) {
                return new RedisUnavailableException("Redis cannot serve " + what + " right now: " + message, cause);
            }
            return new HourglassException("Redis refused " + what + ": " + message, cause);
        }
        if (cause instanceof RedisException
                || cause instanceof RedisConnectionException
                || cause instanceof java.io.IOException
                || cause instanceof TimeoutException) {
            return new RedisUnavailableException("Redis unavailable during " + what + ": " + cause.getMessage(), cause);
        }
        return new HourglassException("failed: " + what, cause);
    }

    private static <T> BiConsumer<T, Throwable> completeInto(CompletableFuture<T> target, String what) {
        return (r, e) -> {
            if (e == null) {
                target.complete(r);
            } else {
                target.completeExceptionally(translate(e, what));
            }
        };
    }

    static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        if (pubSub != null) {
            awaitClosing(pubSub.closeAsync(), "the wake-signal connection");
        }
        awaitClosing(connection.closeAsync(), "the connection");
        shutDown(client, resources);
    }

    /**
     * Shuts the client down, then its resources (resources handed to a client are not the client's to shut down), each
     * wait bounded: Lettuce's own {@code shutdown()} waits without a bound and, rarely, forever (lettuce issue 2278).
     */
    private static void shutDown(AbstractRedisClient client, ClientResources resources) {
        awaitClosing(client.shutdownAsync(0, 2, TimeUnit.SECONDS), "the Redis client");
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    /** Waits up to {@link #CLOSE_STEP_TIMEOUT} for one step of the close; past it, logs and goes on. */
    private static void awaitClosing(CompletableFuture<Void> closing, String what) {
        try {
            closing.get(CLOSE_STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{} did not close within {} s; going on", what, CLOSE_STEP_TIMEOUT.toSeconds(), e);
        }
    }
}
