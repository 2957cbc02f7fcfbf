package io.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.autoconfigure.SpringDataRedisConnection.Cluster;
import io.hourglass.spring.autoconfigure.SpringDataRedisConnection.Node;
import io.hourglass.spring.autoconfigure.SpringDataRedisConnection.Sentinel;
import io.hourglass.spring.autoconfigure.SpringDataRedisConnection.Standalone;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import java.security.KeyStore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;

/** Spring Data Redis settings map to Hourglass as Spring Boot's Lettuce configuration maps them to Lettuce. */
class SpringDataRedisConnectionUnitTests {
    private static final Standalone LOCAL = new Standalone("cache", 6380, 5);

    @Test
    void oneRedisWithItsDatabaseCredentialsTlsAndClientName() {
        RedisURI uri = connection(
                        new SpringDataRedisConnection("app", "pw", LOCAL, null, null, false, true, null, "shop"))
                .redisUri();
        assertThat(uri.getHost()).isEqualTo("cache");
        assertThat(uri.getPort()).isEqualTo(6380);
        assertThat(uri.getDatabase()).isEqualTo(5);
        assertThat(uri.isSsl()).isTrue();
        assertThat(uri.getClientName()).isEqualTo("shop");
        assertThat(credentials(uri).getUsername()).isEqualTo("app");
        assertThat(credentials(uri).getPassword()).containsExactly("pw".toCharArray());
    }

    @Test
    void aPasswordWithoutUsernameAuthenticatesTheDefaultUser() {
        RedisURI uri = connection(
                        new SpringDataRedisConnection(null, "pw", LOCAL, null, null, false, false, null, null))
                .redisUri();
        assertThat(credentials(uri).getUsername()).isNull();
        assertThat(credentials(uri).getPassword()).containsExactly("pw".toCharArray());
        assertThat(uri.isSsl()).isFalse();
    }

    @Test
    void sentinelWinsOverClusterAndStandalone() {
        Sentinel sentinel = new Sentinel("mymaster", List.of(new Node("s1", 26379)), null, "sp", 2);
        HourglassRedisConnection connection = connection(new SpringDataRedisConnection(
                null, "dp", LOCAL, sentinel, new Cluster(List.of(new Node("c1", 7000))), false, false, null, null));
        assertThat(connection.isCluster()).isFalse();
        assertThat(connection.redisUri().getSentinelMasterId()).isEqualTo("mymaster");
        assertThat(connection.redisUri().getDatabase()).isEqualTo(2);
        assertThat(credentials(connection.redisUri().getSentinels().get(0)).getPassword())
                .containsExactly("sp".toCharArray());
    }

    @Test
    void clusterNodesCarryEncodedCredentialsTlsAndIpv6Hosts() {
        HourglassRedisConnection connection = connection(new SpringDataRedisConnection(
                "us er",
                "p@ss/w:rd",
                LOCAL,
                null,
                new Cluster(List.of(new Node("c1", 7000), new Node("::1", 7001))),
                false,
                true,
                null,
                "shop"));
        assertThat(connection.isCluster()).isTrue();
        assertThat(connection.toString()).doesNotContain("p@ss").startsWith("cluster [rediss://***@c1:7000");
        RedisURI first = RedisURI.create(connection.clusterNodes().get(0));
        assertThat(first.getHost()).isEqualTo("c1");
        assertThat(first.isSsl()).isTrue();
        assertThat(first.getClientName()).isEqualTo("shop");
        assertThat(credentials(first).getUsername()).isEqualTo("us er");
        assertThat(credentials(first).getPassword()).containsExactly("p@ss/w:rd".toCharArray());
        assertThat(RedisURI.create(connection.clusterNodes().get(1)).getPort()).isEqualTo(7001);
    }

    @Test
    void whatHourglassCannotHonourFailsNamingTheSetting() throws Exception {
        assertThatThrownBy(() -> connection(
                        new SpringDataRedisConnection(null, null, LOCAL, null, null, true, false, null, null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spring.data.redis.masterreplica")
                .hasMessageContaining("hourglass.redis.uri");
        assertThatThrownBy(() -> connection(new SpringDataRedisConnection(
                        null,
                        null,
                        LOCAL,
                        new Sentinel("m", List.of(), null, null, 0),
                        null,
                        false,
                        false,
                        null,
                        null)))
                .hasMessageContaining("spring.data.redis.sentinel.nodes");
        assertThatThrownBy(() -> connection(new SpringDataRedisConnection(
                        null, null, LOCAL, null, new Cluster(List.of()), false, false, null, null)))
                .hasMessageContaining("spring.data.redis.cluster.nodes");
        assertThatThrownBy(() -> connection(new SpringDataRedisConnection(
                        "a:b",
                        "pw",
                        LOCAL,
                        null,
                        new Cluster(List.of(new Node("c1", 7000))),
                        false,
                        false,
                        null,
                        null)))
                .hasMessageContaining("spring.data.redis.username");

        SslBundle withKeys = SslBundle.of(SslStoreBundle.of(emptyStore(), "x", null));
        assertThatThrownBy(
                        () -> new SpringDataRedisConnection(null, null, LOCAL, null, null, false, true, withKeys, null)
                                .toHourglassConnection(true))
                .hasMessageContaining("key store");

        SslBundle withTrust = SslBundle.of(SslStoreBundle.of(null, null, emptyStore()));
        SpringDataRedisConnection trusting =
                new SpringDataRedisConnection(null, null, LOCAL, null, null, false, true, withTrust, null);
        assertThatThrownBy(() -> trusting.toHourglassConnection(false))
                .hasMessageContaining("hourglass.redis.tls-trusted-certificates");
        assertThat(trusting.toHourglassConnection(true).redisUri().isSsl()).isTrue();
    }

    @Test
    void theJvmsDefaultTrustIsFine() {
        assertThat(new SpringDataRedisConnection(
                                null, null, LOCAL, null, null, false, true, SslBundle.systemDefault(), null)
                        .toHourglassConnection(false)
                        .redisUri()
                        .isSsl())
                .isTrue();
    }

    private static HourglassRedisConnection connection(SpringDataRedisConnection settings) {
        HourglassRedisConnection connection = settings.toHourglassConnection(false);
        assertThat(connection.source()).isEqualTo("spring.data.redis");
        return connection;
    }

    private static RedisCredentials credentials(RedisURI uri) {
        return uri.getCredentialsProvider().resolveCredentials().block();
    }

    private static KeyStore emptyStore() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }
}
