package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Hourglass connects where the application's Spring Data Redis connects ({@code spring.data.redis.*} or a service
 * connection: standalone, URL, credentials, database, TLS, Sentinel, Cluster) unless {@code hourglass.redis.*} is set,
 * and refuses at start-up what it cannot honour.
 */
@RedisTest
public abstract class SpringDataRedisSuite extends SuiteSupport {

    /** @return a runner with Spring Boot's Spring Data Redis auto-configuration and Hourglass's */
    protected ApplicationContextRunner dataRedisRunner() {
        return runner().withConfiguration(AutoConfigurations.of(line().dataRedisAutoConfiguration()));
    }

    /**
     * @param redis the test's factory, for a stand-in instance
     * @return {@link #dataRedisRunner()} with the application's own {@link Hourglass} bean, so that only the connection
     *     is derived (for settings no test server answers to)
     */
    protected ApplicationContextRunner connectionOnlyRunner(HourglassFactory redis) {
        return dataRedisRunner().withBean("standIn", Hourglass.class, redis::create);
    }

    @Test
    void connectsWhereSpringDataRedisConnects(RedisServerProcess redis, HourglassFactory factory) {
        dataRedisRunner()
                .withPropertyValues(
                        "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port(),
                        "spring.data.redis.database=2",
                        "hourglass.namespace=" + factory.namespace())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.source()).isEqualTo("spring.data.redis");
                    assertThat(connection.redisUri().getDatabase()).isEqualTo(2);
                    context.getBean(HourglassTemplate.class)
                            .schedule("order-timeout", "o-1", "x", Duration.ofMinutes(1));
                    assertThat(keyCount(redis.uri() + "/2")).isPositive();
                    assertThat(keyCount(redis.uri())).isZero();
                });
    }

    @Test
    void theUrlOfSpringDataRedisIsUsed(RedisServerProcess redis, HourglassFactory factory) {
        dataRedisRunner()
                .withPropertyValues(
                        "spring.data.redis.url=redis://" + redis.host() + ":" + redis.port() + "/3",
                        "hourglass.namespace=" + factory.namespace())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RedisURI uri =
                            context.getBean(HourglassRedisConnection.class).redisUri();
                    assertThat(uri.getPort()).isEqualTo(redis.port());
                    assertThat(uri.getDatabase()).isEqualTo(3);
                    assertThat(uri.isSsl()).isFalse();
                });
    }

    @Test
    void theUsernameAndPasswordOfSpringDataRedisAreUsed() throws Exception {
        try (RedisServerProcess secured = RedisServerProcess.builder()
                .arg("user", "hourglass", "on", ">s3cret@:/x", "~*", "&*", "+@all")
                .password("other-password-0123456789")
                .build()
                .start()) {
            dataRedisRunner()
                    .withPropertyValues(
                            "spring.data.redis.host=" + secured.host(),
                            "spring.data.redis.port=" + secured.port(),
                            "spring.data.redis.username=hourglass",
                            "spring.data.redis.password=s3cret@:/x")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        context.getBean(HourglassTemplate.class)
                                .schedule("order-timeout", "o-1", "x", Duration.ofMinutes(1));
                    });
            dataRedisRunner()
                    .withPropertyValues(
                            "spring.data.redis.host=" + secured.host(),
                            "spring.data.redis.port=" + secured.port(),
                            "spring.data.redis.username=hourglass",
                            "spring.data.redis.password=wrong",
                            "hourglass.command-timeout=2s")
                    .run(context -> assertThat(context).hasFailed());
        }
    }

    @Test
    void hourglassRedisUriOverridesSpringDataRedis(HourglassFactory redis) {
        dataRedisRunner()
                .withPropertyValues(
                        "spring.data.redis.port=1",
                        "hourglass.redis.uri=" + redis.redisUri(),
                        "hourglass.namespace=" + redis.namespace())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HourglassRedisConnection.class).source())
                            .isEqualTo("hourglass.redis");
                });
    }

    @Test
    void hourglassRedisClusterNodesOverrideSpringDataRedis(HourglassFactory redis) {
        connectionOnlyRunner(redis)
                .withPropertyValues(
                        "spring.data.redis.port=1", "hourglass.redis.cluster-nodes=redis://n1:7000,redis://n2:7001")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.isCluster()).isTrue();
                    assertThat(connection.clusterNodes()).containsExactly("redis://n1:7000", "redis://n2:7001");
                    assertThat(connection.source()).isEqualTo("hourglass.redis");
                });
    }

    @Test
    void settingBothHourglassRedisUriAndClusterNodesFailsTheStartUp(HourglassFactory redis) {
        dataRedisRunner()
                .withPropertyValues(
                        "hourglass.redis.uri=" + redis.redisUri(), "hourglass.redis.cluster-nodes=redis://n1:7000")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.redis.uri and hourglass.redis.cluster-nodes are both set")));
    }

    @Test
    void anUnparsableHourglassRedisUriFailsTheStartUpNamingTheProperty() {
        runner().withPropertyValues("hourglass.redis.uri=redis://:not a port")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.redis.uri")));
    }

    @Test
    void sentinelSettingsAreMapped(HourglassFactory redis) {
        connectionOnlyRunner(redis)
                .withPropertyValues(
                        "spring.data.redis.sentinel.master=mymaster",
                        "spring.data.redis.sentinel.nodes=s1:26379,s2:26380",
                        "spring.data.redis.sentinel.username=su",
                        "spring.data.redis.sentinel.password=sp",
                        "spring.data.redis.username=du",
                        "spring.data.redis.password=dp",
                        "spring.data.redis.database=4",
                        "spring.data.redis.ssl.enabled=true",
                        "spring.data.redis.client-name=shop")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RedisURI uri =
                            context.getBean(HourglassRedisConnection.class).redisUri();
                    assertThat(uri.getSentinelMasterId()).isEqualTo("mymaster");
                    assertThat(uri.getSentinels())
                            .extracting(RedisURI::getHost, RedisURI::getPort)
                            .containsExactly(
                                    org.assertj.core.groups.Tuple.tuple("s1", 26379),
                                    org.assertj.core.groups.Tuple.tuple("s2", 26380));
                    assertThat(uri.getSentinels()).allSatisfy(sentinel -> {
                        assertThat(credentials(sentinel).getUsername()).isEqualTo("su");
                        assertThat(credentials(sentinel).getPassword()).containsExactly("sp".toCharArray());
                        assertThat(sentinel.isSsl()).isTrue();
                    });
                    assertThat(credentials(uri).getUsername()).isEqualTo("du");
                    assertThat(credentials(uri).getPassword()).containsExactly("dp".toCharArray());
                    assertThat(uri.getDatabase()).isEqualTo(4);
                    assertThat(uri.isSsl()).isTrue();
                    assertThat(uri.getClientName()).isEqualTo("shop");
                });
    }

    @Test
    void clusterSettingsAreMappedWithCredentialsEncoded(HourglassFactory redis) {
        connectionOnlyRunner(redis)
                .withPropertyValues(
                        "spring.data.redis.cluster.nodes=n1:7000,n2:7001",
                        "spring.data.redis.username=us er",
                        "spring.data.redis.password=p@ss:w/rd%",
                        "spring.data.redis.ssl.enabled=true",
                        "spring.data.redis.client-name=shop")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.isCluster()).isTrue();
                    assertThat(connection.toString()).doesNotContain("p@ss");
                    List<RedisURI> nodes = connection.clusterNodes().stream()
                            .map(RedisURI::create)
                            .toList();
                    assertThat(nodes)
                            .extracting(RedisURI::getHost, RedisURI::getPort)
                            .containsExactly(
                                    org.assertj.core.groups.Tuple.tuple("n1", 7000),
                                    org.assertj.core.groups.Tuple.tuple("n2", 7001));
                    assertThat(nodes).allSatisfy(node -> {
                        assertThat(credentials(node).getUsername()).isEqualTo("us er");
                        assertThat(credentials(node).getPassword()).containsExactly("p@ss:w/rd%".toCharArray());
                        assertThat(node.isSsl()).isTrue();
                        assertThat(node.getClientName()).isEqualTo("shop");
                    });
                });
    }

    @Test
    void tlsIsUsedWhenSslIsEnabledOrTheUrlSaysRediss(HourglassFactory redis) {
        connectionOnlyRunner(redis)
                .withPropertyValues("spring.data.redis.ssl.enabled=true")
                .run(context -> assertThat(context.getBean(HourglassRedisConnection.class)
                                .redisUri()
                                .isSsl())
                        .isTrue());
        connectionOnlyRunner(redis)
                .withPropertyValues("spring.data.redis.url=rediss://cache.example.com:6380")
                .run(context -> {
                    RedisURI uri =
                            context.getBean(HourglassRedisConnection.class).redisUri();
                    assertThat(uri.isSsl()).isTrue();
                    assertThat(uri.getHost()).isEqualTo("cache.example.com");
                });
    }

    @Test
    void anSslBundleWithItsOwnTrustStoreNeedsHourglassTrustedCertificates(HourglassFactory redis, @TempDir Path dir)
            throws Exception {
        Path trustStore = emptyPkcs12(dir.resolve("trust.p12"));
        Path pem = Files.writeString(dir.resolve("ca.pem"), "read only when connecting");
        String[] bundle = {
            "spring.ssl.bundle.jks.redis.truststore.location=file:" + trustStore,
            "spring.ssl.bundle.jks.redis.truststore.password=secret",
            "spring.ssl.bundle.jks.redis.truststore.type=PKCS12",
            "spring.data.redis.ssl.enabled=true",
            "spring.data.redis.ssl.bundle=redis"
        };
        ApplicationContextRunner withSsl = connectionOnlyRunner(redis)
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
                .withPropertyValues(bundle);
        withSsl.run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                        messages(failure))
                .contains("hourglass.redis.tls-trusted-certificates")));
        withSsl.withPropertyValues("hourglass.redis.tls-trusted-certificates=" + pem)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HourglassRedisConnection.class)
                                    .redisUri()
                                    .isSsl())
                            .isTrue();
                });
    }

    @Test
    void anSslBundleWithClientCertificatesFailsTheStartUp(HourglassFactory redis, @TempDir Path dir) throws Exception {
        Path keyStore = emptyPkcs12(dir.resolve("keys.p12"));
        connectionOnlyRunner(redis)
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
                .withPropertyValues(
                        "spring.ssl.bundle.jks.redis.keystore.location=file:" + keyStore,
                        "spring.ssl.bundle.jks.redis.keystore.password=secret",
                        "spring.ssl.bundle.jks.redis.keystore.type=PKCS12",
                        "spring.data.redis.ssl.enabled=true",
                        "spring.data.redis.ssl.bundle=redis")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("key store")));
    }

    @Test
    void aServiceConnectionWinsOverTheProperties(RedisServerProcess redis, HourglassFactory factory) {
        dataRedisRunner()
                .withPropertyValues("spring.data.redis.port=1", "hourglass.namespace=" + factory.namespace())
                .withBean("redisConnectionDetails", connectionDetailsType(), () -> line().standaloneConnectionDetails(
                                redis.host(), redis.port()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HourglassRedisConnection.class)
                                    .redisUri()
                                    .getPort())
                            .isEqualTo(redis.port());
                });
    }

    @Test
    void withoutSpringDataRedisTheDefaultRedisIsUsed(HourglassFactory redis) {
        connectionOnlyRunner(redis)
                .withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassRedisConnection connection = context.getBean(HourglassRedisConnection.class);
                    assertThat(connection.source()).isEqualTo("default");
                    assertThat(connection.redisUri()).hasToString("redis://localhost");
                });
    }

    @SuppressWarnings("unchecked")
    private Class<Object> connectionDetailsType() {
        return (Class<Object>) line().connectionDetailsType();
    }

    private static RedisCredentials credentials(RedisURI uri) {
        return uri.getCredentialsProvider().resolveCredentials().block();
    }

    private static long keyCount(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().dbsize();
        } finally {
            client.shutdown();
        }
    }

    private static Path emptyPkcs12(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, "secret".toCharArray());
        }
        return file;
    }
}
