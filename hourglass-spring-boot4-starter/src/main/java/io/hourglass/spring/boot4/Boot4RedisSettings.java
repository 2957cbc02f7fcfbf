package io.hourglass.spring.boot4;

import io.hourglass.spring.autoconfigure.SpringDataRedisConnection;
import java.util.List;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.ssl.SslBundle;

/** Reads Spring Boot 4's Redis connection classes into the line-neutral {@link SpringDataRedisConnection}. */
final class Boot4RedisSettings {

    private Boot4RedisSettings() {}

    /**
     * Mirrors Spring Boot 4's Lettuce configuration: the connection details decide hosts and credentials; TLS is on
     * when they carry an SSL bundle or {@code spring.data.redis.url} starts with {@code rediss://}.
     *
     * @param details the connection details; not null
     * @param properties the properties; not null
     * @return the settings
     */
    static SpringDataRedisConnection of(DataRedisConnectionDetails details, DataRedisProperties properties) {
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        DataRedisConnectionDetails.Cluster cluster = details.getCluster();
        SslBundle sslBundle = details.getSslBundle();
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
                details.getMasterReplica() != null,
                ssl,
                sslBundle,
                properties.getClientName());
    }

    private static List<SpringDataRedisConnection.Node> nodes(List<DataRedisConnectionDetails.Node> nodes) {
        return nodes == null
                ? List.of()
                : nodes.stream()
                        .map(n -> new SpringDataRedisConnection.Node(n.host(), n.port()))
                        .toList();
    }
}
