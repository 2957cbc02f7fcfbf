package io.hourglass.spring.boot3;

import io.hourglass.spring.autoconfigure.SpringDataRedisConnection;
import java.util.List;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.ssl.SslBundle;

/** Reads Spring Boot 3.5's Redis connection classes into the line-neutral {@link SpringDataRedisConnection}. */
final class Boot3RedisSettings {

    private Boot3RedisSettings() {}

    /**
     * Mirrors Spring Boot 3.5's Lettuce configuration: the connection details decide hosts and credentials; TLS is on
     * when the mode's SSL bundle is present or {@code spring.data.redis.url} starts with {@code rediss://}.
     *
     * @param details the connection details; not null
     * @param properties the properties; not null
     * @return the settings
     */
    static SpringDataRedisConnection of(RedisConnectionDetails details, RedisProperties properties) {
        RedisConnectionDetails.Standalone standalone = details.getStandalone();
        RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        RedisConnectionDetails.Cluster cluster = details.getCluster();
        SslBundle sslBundle = sentinel != null
                ? sentinel.getSslBundle()
                : cluster != null ? cluster.getSslBundle() : standalone != null ? standalone.getSslBundle() : null;
        String url = properties.getUrl();
        boolean ssl = sslBundle != null || (url != null && url.startsWith("rediss://"));
        return new SpringDataRedisConnection(
                details.getUsername(),
                details.getPassword(),
                standalone != null
                        ? new SpringDataRedisConnection.Standalone(
                                standalone.getHost(), standalone.getPort(), standalone.getDatabase())
                        : new SpringDataRedisConnection.Standalone("localhost", 6379, 0),
                sentinel == null
                        ? null
                        : new SpringDataRedisConnection.Sentinel(
                                sentinel.getMaster(),
                                nodes(sentinel.getNodes()),
                                sentinel.getUsername(),
                                sentinel.getPassword(),
                                sentinel.getDatabase()),
                cluster == null ? null : new SpringDataRedisConnection.Cluster(nodes(cluster.getNodes())),
                false,
                ssl,
                sslBundle,
                properties.getClientName());
    }

    private static List<SpringDataRedisConnection.Node> nodes(List<RedisConnectionDetails.Node> nodes) {
        return nodes == null
                ? List.of()
                : nodes.stream()
                        .map(n -> new SpringDataRedisConnection.Node(n.host(), n.port()))
                        .toList();
    }
}
