package io.hourglass.spring;

import io.hourglass.HourglassBuilder;
import io.lettuce.core.RedisURI;
import java.util.List;
import java.util.Objects;

/**
 * Where the auto-configured {@link io.hourglass.Hourglass} connects: one Redis (standalone, or a master found through
 * Sentinel) or a Redis Cluster. The auto-configuration derives it from {@code hourglass.redis.uri} or
 * {@code hourglass.redis.cluster-nodes} when set, else from the application's Spring Data Redis settings
 * ({@code spring.data.redis.*}, or a service connection), else {@link HourglassBuilder#DEFAULT_REDIS_URI}. Declare a
 * bean of this type to decide yourself. Immutable and thread-safe.
 */
public final class HourglassRedisConnection {
    private final RedisURI redisUri;
    private final List<String> clusterNodes;
    private final String source;

    private HourglassRedisConnection(RedisURI redisUri, List<String> clusterNodes, String source) {
        this.redisUri = redisUri;
        this.clusterNodes = clusterNodes;
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * One Redis, or a master found through Sentinel.
     *
     * @param redisUri the Lettuce URI, e.g. {@code RedisURI.create("redis://localhost:6379")}; not null
     * @param source where the setting came from, for logs and the health details, e.g. {@code spring.data.redis}
     * @return the connection
     */
    public static HourglassRedisConnection standalone(RedisURI redisUri, String source) {
        return new HourglassRedisConnection(Objects.requireNonNull(redisUri, "redisUri"), List.of(), source);
    }

    /**
     * A Redis Cluster.
     *
     * @param seedUris one or more nodes, {@code redis://[user:password@]host:port} (or {@code rediss://})
     * @param source where the setting came from, for logs and the health details
     * @return the connection
     * @throws IllegalArgumentException when no node is given
     */
    public static HourglassRedisConnection cluster(List<String> seedUris, String source) {
        if (seedUris == null || seedUris.isEmpty()) {
            throw new IllegalArgumentException("clusterNodes: give at least one seed node");
        }
        return new HourglassRedisConnection(null, List.copyOf(seedUris), source);
    }

    /** @return true for a Redis Cluster, false for one Redis (standalone or Sentinel) */
    public boolean isCluster() {
        return redisUri == null;
    }

    /** @return the URI of one Redis, or null for a cluster */
    public RedisURI redisUri() {
        return redisUri;
    }

    /** @return the cluster's seed node URIs; empty unless {@link #isCluster()} */
    public List<String> clusterNodes() {
        return clusterNodes;
    }

    /** @return where the setting came from: {@code hourglass.redis}, {@code spring.data.redis}, {@code default}, … */
    public String source() {
        return source;
    }

    /**
     * Sets this connection on a builder.
     *
     * @param builder the builder; not null
     * @throws IllegalArgumentException naming the field when a cluster node URI cannot be parsed
     */
    public void applyTo(HourglassBuilder builder) {
        if (isCluster()) {
            builder.clusterNodes(clusterNodes.toArray(String[]::new));
        } else {
            builder.redisUri(redisUri);
        }
    }

    /** @return the target with passwords masked, and its source, e.g. {@code redis://localhost:6379 (default)} */
    @Override
    public String toString() {
        String target = isCluster()
                ? "cluster "
                        + clusterNodes.stream()
                                .map(HourglassRedisConnection::mask)
                                .toList()
                : redisUri.toString();
        return target + " (" + source + ")";
    }

    private static String mask(String uri) {
        return uri.replaceFirst("//[^@/]*@", "//***@");
    }
}
