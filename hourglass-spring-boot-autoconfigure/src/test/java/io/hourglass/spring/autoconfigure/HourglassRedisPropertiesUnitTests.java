package io.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.spring.HourglassRedisConnection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code hourglass.redis.*}: one Redis, a cluster, or the default; never both. */
class HourglassRedisPropertiesUnitTests {

    @Test
    void withNothingSetItIsTheCoresDefaultRedis() {
        HourglassRedisConnection connection = HourglassRedisProperties.connection(new HourglassProperties.Redis());
        assertThat(connection.redisUri().getHost()).isEqualTo("localhost");
        assertThat(connection.redisUri().getPort()).isEqualTo(6379);
        assertThat(connection.source()).isEqualTo("default");
    }

    @Test
    void aUriOrClusterNodes() {
        HourglassProperties.Redis redis = new HourglassProperties.Redis();
        redis.setUri("rediss://user:secret@cache:6380/2");
        HourglassRedisConnection one = HourglassRedisProperties.connection(redis);
        assertThat(one.redisUri().isSsl()).isTrue();
        assertThat(one.redisUri().getDatabase()).isEqualTo(2);
        assertThat(one).hasToString("rediss://user:******@cache:6380/2 (hourglass.redis)");

        HourglassProperties.Redis cluster = new HourglassProperties.Redis();
        cluster.setClusterNodes(List.of("redis://:pw@n1:7000", "redis://n2:7001"));
        HourglassRedisConnection nodes = HourglassRedisProperties.connection(cluster);
        assertThat(nodes.isCluster()).isTrue();
        assertThat(nodes.redisUri()).isNull();
        assertThat(nodes).hasToString("cluster [redis://***@n1:7000, redis://n2:7001] (hourglass.redis)");
    }

    @Test
    void bothOrAnUnparsableUriFailNamingTheProperty() {
        HourglassProperties.Redis both = new HourglassProperties.Redis();
        both.setUri("redis://a:1");
        both.setClusterNodes(List.of("redis://b:2"));
        assertThatThrownBy(() -> HourglassRedisProperties.connection(both))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hourglass.redis.uri and hourglass.redis.cluster-nodes are both set");

        HourglassProperties.Redis bad = new HourglassProperties.Redis();
        bad.setUri("http://user:secret@cache:6379");
        assertThatThrownBy(() -> HourglassRedisProperties.connection(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hourglass.redis.uri")
                .hasMessageNotContaining("secret");
    }
}
