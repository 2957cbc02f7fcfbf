package io.hourglass.spring.autoconfigure;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Reads the {@code spring.data.redis.*} properties when Spring Data Redis is not on the class path, so that they mean
 * the same to Hourglass with or without it: host, port, url, username, password, database, {@code ssl.enabled}, client
 * name, {@code sentinel.*} and {@code cluster.nodes}, mapped as Spring Boot maps them (a URL wins over host, port and
 * credentials). SSL bundles need Spring Data Redis's own configuration and are not read here.
 */
final class SpringDataRedisPropertiesBinding {
    static final String PREFIX = "spring.data.redis";

    private SpringDataRedisPropertiesBinding() {}

    /** The bound properties; each null when not set. */
    record Properties(
            String host,
            Integer port,
            String url,
            String username,
            String password,
            Integer database,
            String clientName,
            Ssl ssl,
            Sentinel sentinel,
            Cluster cluster) {}

    record Ssl(Boolean enabled) {}

    record Sentinel(String master, List<String> nodes, String username, String password) {}

    record Cluster(List<String> nodes) {}

    /**
     * @param environment the application's environment
     * @return the settings, or empty when no {@code spring.data.redis.*} property is set
     * @throws IllegalArgumentException naming the property, for a URL or node that cannot be parsed
     */
    static Optional<SpringDataRedisConnection> bind(Environment environment) {
        return Binder.get(environment)
                .bind(PREFIX, Bindable.of(Properties.class))
                .map(SpringDataRedisPropertiesBinding::connection)
                .map(Optional::of)
                .orElse(Optional.empty());
    }

    private static SpringDataRedisConnection connection(Properties p) {
        String username = p.username();
        String password = p.password();
        String host = p.host() != null ? p.host() : "localhost";
        int port = p.port() != null ? p.port() : RedisURI.DEFAULT_REDIS_PORT;
        int database = p.database() != null ? p.database() : 0;
        boolean ssl = p.ssl() != null && Boolean.TRUE.equals(p.ssl().enabled());
        if (p.url() != null && !p.url().isBlank()) {
            URI url = url(p.url().trim());
            host = url.getHost();
            port = url.getPort() > 0 ? url.getPort() : RedisURI.DEFAULT_REDIS_PORT;
            String path = url.getPath() == null ? "" : url.getPath().replaceFirst("^/", "");
            database = path.isEmpty() ? 0 : Integer.parseInt(path);
            ssl = ssl || "rediss".equals(url.getScheme());
            String userInfo = url.getRawUserInfo();
            if (userInfo != null) {
                int colon = userInfo.indexOf(':');
                String user = colon < 0 ? null : decode(userInfo.substring(0, colon));
                username = user == null || user.isEmpty() ? null : user;
                password = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
            }
        }
        SpringDataRedisConnection.Sentinel sentinel =
                p.sentinel() == null || p.sentinel().master() == null
                        ? null
                        : new SpringDataRedisConnection.Sentinel(
                                p.sentinel().master(),
                                nodes(p.sentinel().nodes(), PREFIX + ".sentinel.nodes"),
                                p.sentinel().username(),
                                p.sentinel().password(),
                                database);
        SpringDataRedisConnection.Cluster cluster = p.cluster() == null
                        || p.cluster().nodes() == null
                ? null
                : new SpringDataRedisConnection.Cluster(nodes(p.cluster().nodes(), PREFIX + ".cluster.nodes"));
        return new SpringDataRedisConnection(
                username,
                password,
                new SpringDataRedisConnection.Standalone(host, port, database),
                sentinel,
                cluster,
                false,
                ssl,
                null,
                p.clientName());
    }

    /** Parses as Spring Boot does, with {@link URI}: Lettuce's parser differs between its versions 6 and 7. */
    private static URI url(String value) {
        try {
            URI url = new URI(value);
            if (!("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme())) || url.getHost() == null) {
                throw new URISyntaxException(value, "not redis://host[:port][/database] or rediss://…");
            }
            String path = url.getPath() == null ? "" : url.getPath().replaceFirst("^/", "");
            if (!path.isEmpty()) {
                Integer.parseInt(path);
            }
            return url;
        } catch (URISyntaxException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    PREFIX + ".url: cannot parse '" + value.replaceFirst("//[^@/]*@", "//***@") + "'", e);
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static List<SpringDataRedisConnection.Node> nodes(List<String> nodes, String property) {
        if (nodes == null) {
            return List.of();
        }
        return nodes.stream()
                .map(String::trim)
                .map(node -> {
                    int colon = node.lastIndexOf(':');
                    try {
                        return new SpringDataRedisConnection.Node(
                                node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)));
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException(property + ": '" + node + "' is not host:port", e);
                    }
                })
                .toList();
    }
}
