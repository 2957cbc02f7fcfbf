package io.hourglass.spring.autoconfigure;

import io.hourglass.HourglassBuilder;
import io.hourglass.spring.HourglassRedisConnection;
import io.lettuce.core.RedisURI;
import java.util.List;

/** Maps {@code hourglass.redis.*} to a {@link HourglassRedisConnection}. */
final class HourglassRedisProperties {
    static final String SOURCE = "hourglass.redis";
    static final String DEFAULT_SOURCE = "default";

    private HourglassRedisProperties() {}

    /**
     * @param redis the properties
     * @return the connection they describe, or the default Redis when they are not set
     * @throws IllegalStateException when both are set
     * @throws IllegalArgumentException naming the property when a URI cannot be parsed
     */
    static HourglassRedisConnection connection(HourglassProperties.Redis redis) {
        boolean uri = redis.getUri() != null && !redis.getUri().isBlank();
        List<String> nodes = redis.getClusterNodes() == null ? List.of() : redis.getClusterNodes();
        if (uri && !nodes.isEmpty()) {
            throw new IllegalStateException(
                    "hourglass.redis.uri and hourglass.redis.cluster-nodes are both set; set one:"
                            + " uri for one Redis (or Sentinel), cluster-nodes for a Redis Cluster");
        }
        if (!nodes.isEmpty()) {
            for (String node : nodes) {
                parse(node, "hourglass.redis.cluster-nodes");
            }
            return HourglassRedisConnection.cluster(nodes, SOURCE);
        }
        if (uri) {
            return HourglassRedisConnection.standalone(parse(redis.getUri(), "hourglass.redis.uri"), SOURCE);
        }
        return HourglassRedisConnection.standalone(RedisURI.create(HourglassBuilder.DEFAULT_REDIS_URI), DEFAULT_SOURCE);
    }

    private static RedisURI parse(String uri, String property) {
        try {
            return RedisURI.create(uri.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    property + ": cannot parse '" + uri.replaceFirst("//[^@/]*@", "//***@") + "': " + e.getMessage(),
                    e);
        }
    }
}
