package io.hourglass.spring.autoconfigure;

import io.hourglass.spring.HourglassRedisConnection;
import io.lettuce.core.RedisURI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;

/**
 * The application's Spring Data Redis connection settings in terms common to both Spring Boot lines: each line's
 * starter fills it from its own classes ({@code RedisConnectionDetails} and {@code RedisProperties} on 3.5,
 * {@code DataRedisConnectionDetails} and {@code DataRedisProperties} on 4.x), and
 * {@link #toHourglassConnection(boolean)} maps it to Hourglass the way Spring Boot's Lettuce configuration does:
 * Sentinel if configured, else Cluster, else one Redis. Immutable.
 *
 * @param username the data nodes' ACL user, or null
 * @param password the data nodes' password, or null for none
 * @param standalone host, port and database of one Redis; not null (Boot always has one)
 * @param sentinel the Sentinel settings, or null
 * @param cluster the Cluster settings, or null
 * @param masterReplica whether a static master/replica setup is configured (Boot 4.1+), which Hourglass does not
 *     support
 * @param ssl whether to use TLS
 * @param sslBundle the SSL bundle Spring Boot would use, or null; Hourglass cannot use a key store, and replaces its
 *     trust material with {@code hourglass.redis.tls-trusted-certificates}
 * @param clientName the {@code CLIENT SETNAME} name, or null
 */
public record SpringDataRedisConnection(
        String username,
        String password,
        Standalone standalone,
        Sentinel sentinel,
        Cluster cluster,
        boolean masterReplica,
        boolean ssl,
        SslBundle sslBundle,
        String clientName) {

    /** Where the settings come from, as {@link HourglassRedisConnection#source()} reports it. */
    public static final String SOURCE = "spring.data.redis";

    /**
     * @param host host name or address
     * @param port port
     */
    public record Node(String host, int port) {}

    /**
     * @param host host name or address
     * @param port port
     * @param database database index
     */
    public record Standalone(String host, int port, int database) {}

    /**
     * @param master the monitored master's name
     * @param nodes the Sentinel nodes; not empty
     * @param username the Sentinels' ACL user, or null
     * @param password the Sentinels' password, or null
     * @param database the data nodes' database index
     */
    public record Sentinel(String master, List<Node> nodes, String username, String password, int database) {}

    /** @param nodes the cluster's seed nodes; not empty */
    public record Cluster(List<Node> nodes) {}

    /**
     * Checks that {@code standalone} is given.
     *
     * @param username the data nodes' ACL user, or null
     * @param password the data nodes' password, or null
     * @param standalone one Redis; not null
     * @param sentinel the Sentinel settings, or null
     * @param cluster the Cluster settings, or null
     * @param masterReplica whether a static master/replica setup is configured
     * @param ssl whether to use TLS
     * @param sslBundle the SSL bundle, or null
     * @param clientName the client name, or null
     */
    public SpringDataRedisConnection {
        Objects.requireNonNull(standalone, "standalone");
    }

    /**
     * @param tlsTrustConfigured whether {@code hourglass.redis.tls-trusted-certificates} names the certificates to
     *     trust, which then replace an SSL bundle's trust material
     * @return the Hourglass connection these settings describe
     * @throws IllegalStateException naming the setting, for what Hourglass cannot honour: a static master/replica
     *     setup, an SSL bundle with a key store (client certificates), an SSL bundle with its own trust material unless
     *     {@code tlsTrustConfigured}, Sentinel or Cluster without nodes, a Cluster user name with a colon
     */
    public HourglassRedisConnection toHourglassConnection(boolean tlsTrustConfigured) {
        if (masterReplica) {
            throw unsupported("spring.data.redis.masterreplica (a static master/replica setup) is not supported by"
                    + " Hourglass");
        }
        SslStoreBundle stores = ssl && sslBundle != null ? sslBundle.getStores() : null;
        if (stores != null && stores.getKeyStore() != null) {
            throw unsupported(
                    "the SSL bundle of spring.data.redis has a key store (client certificates), which Hourglass"
                            + " cannot use");
        }
        if (stores != null && stores.getTrustStore() != null && !tlsTrustConfigured) {
            throw unsupported("the SSL bundle of spring.data.redis has its own trust material, which Hourglass cannot"
                    + " read; set hourglass.redis.tls-trusted-certificates to a PEM file of the certificates to trust");
        }
        if (sentinel != null) {
            return HourglassRedisConnection.standalone(sentinelUri(), SOURCE);
        }
        if (cluster != null) {
            if (cluster.nodes() == null || cluster.nodes().isEmpty()) {
                throw unsupported("spring.data.redis.cluster.nodes is empty");
            }
            if (password != null && username != null && username.contains(":")) {
                throw unsupported(
                        "spring.data.redis.username contains ':', which a Redis Cluster node URI cannot carry");
            }
            List<String> seeds = new ArrayList<>();
            for (Node node : cluster.nodes()) {
                seeds.add(clusterNodeUri(node));
            }
            return HourglassRedisConnection.cluster(seeds, SOURCE);
        }
        RedisURI.Builder uri = RedisURI.Builder.redis(standalone.host(), standalone.port())
                .withDatabase(standalone.database())
                .withSsl(ssl);
        authenticate(uri, username, password);
        if (clientName != null && !clientName.isBlank()) {
            uri.withClientName(clientName);
        }
        return HourglassRedisConnection.standalone(uri.build(), SOURCE);
    }

    private RedisURI sentinelUri() {
        if (sentinel.nodes() == null || sentinel.nodes().isEmpty()) {
            throw unsupported("spring.data.redis.sentinel.nodes is empty");
        }
        RedisURI.Builder uri = RedisURI.builder()
                .withSentinelMasterId(sentinel.master())
                .withDatabase(sentinel.database())
                .withSsl(ssl);
        for (Node node : sentinel.nodes()) {
            RedisURI.Builder sentinelNode =
                    RedisURI.Builder.redis(node.host(), node.port()).withSsl(ssl);
            authenticate(sentinelNode, sentinel.username(), sentinel.password());
            uri.withSentinel(sentinelNode.build());
        }
        authenticate(uri, username, password);
        if (clientName != null && !clientName.isBlank()) {
            uri.withClientName(clientName);
        }
        return uri.build();
    }

    private String clusterNodeUri(Node node) {
        StringBuilder uri = new StringBuilder(ssl ? "rediss://" : "redis://");
        if (password != null) {
            uri.append(username == null ? "" : encode(username))
                    .append(':')
                    .append(encode(password))
                    .append('@');
        }
        String host = node.host().contains(":") && !node.host().startsWith("[") ? "[" + node.host() + "]" : node.host();
        uri.append(host).append(':').append(node.port());
        if (clientName != null && !clientName.isBlank()) {
            uri.append("?clientName=").append(encode(clientName));
        }
        return uri.toString();
    }

    private static void authenticate(RedisURI.Builder uri, String username, String password) {
        if (password == null) {
            return;
        }
        // CharSequence overloads: they exist in Lettuce 6 and 7 (Lettuce 7 dropped the String ones).
        if (username == null || username.isEmpty()) {
            uri.withPassword((CharSequence) password);
        } else {
            uri.withAuthentication(username, (CharSequence) password);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static IllegalStateException unsupported(String what) {
        return new IllegalStateException(what + ". Set hourglass.redis.uri (or hourglass.redis.cluster-nodes) to tell"
                + " Hourglass where to connect, or declare an HourglassRedisConnection bean.");
    }
}
