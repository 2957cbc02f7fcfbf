package io.hourglass.server.embedded;

import io.hourglass.server.HourglassServerProperties;
import io.hourglass.spring.HourglassRedisConnection;
import io.lettuce.core.RedisURI;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The development default: without {@code hourglass.redis} (no {@code --redis}), an {@link EmbeddedRedis} in the data
 * dir, and the starter's {@link io.hourglass.Hourglass} bean connected to it through a {@link HourglassRedisConnection}
 * bean (the starter's own, from {@code hourglass.redis.uri}, backs off). The Hourglass bean depends on it, so Redis
 * starts before Hourglass and stops after it.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoRedisConfiguredCondition.class)
public class EmbeddedRedisConfiguration {

    /**
     * @param properties the server's settings
     * @return the started Redis, stopped with the context
     */
    @Bean(destroyMethod = "close")
    public EmbeddedRedis embeddedRedis(HourglassServerProperties properties) {
        return EmbeddedRedis.start(properties.dataDir());
    }

    /**
     * @param redis the embedded Redis
     * @return where the starter's Hourglass bean connects
     */
    @Bean
    public HourglassRedisConnection embeddedRedisConnection(EmbeddedRedis redis) {
        RedisURI uri = RedisURI.create(redis.uri());
        uri.setPassword(redis.password().toCharArray());
        return HourglassRedisConnection.standalone(
                uri, "embedded Redis in " + redis.dataDir().toAbsolutePath());
    }
}
