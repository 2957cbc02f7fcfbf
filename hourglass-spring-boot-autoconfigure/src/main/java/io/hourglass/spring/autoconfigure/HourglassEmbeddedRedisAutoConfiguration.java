package io.hourglass.spring.autoconfigure;

import io.hourglass.Hourglass;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassRedisConnection;
import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * For local development only: with {@code hourglass.embedded-redis.enabled=true} and {@code hourglass-embedded} on the
 * class path, runs a {@code redis-server} on a free port of 127.0.0.1 (no persistence) as a bean, and connects
 * Hourglass to it instead of any other setting.
 *
 * <p>The Redis bean is a dependency of the {@link HourglassRedisConnection} bean, hence of the {@link Hourglass} bean:
 * Spring creates it first and destroys it last, after the listener workers have drained (they stop in the first
 * shutdown phase, before any bean is destroyed) and Hourglass has closed its connections. It is stopped by the context,
 * not by a JVM shutdown hook, which could stop it while the context still used it.
 */
@AutoConfiguration(
        before = HourglassAutoConfiguration.class,
        beforeName = {
            "io.hourglass.spring.boot3.HourglassRedisPropertiesAutoConfiguration",
            "io.hourglass.spring.boot4.HourglassDataRedisAutoConfiguration"
        })
@ConditionalOnClass({Hourglass.class, RedisServerProcess.class})
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnProperty(prefix = "hourglass.embedded-redis", name = "enabled", havingValue = "true")
public class HourglassEmbeddedRedisAutoConfiguration {
    /** {@link HourglassRedisConnection#source()} of the embedded Redis. */
    public static final String SOURCE = "hourglass.embedded-redis";

    private static final Logger log = LoggerFactory.getLogger(HourglassEmbeddedRedisAutoConfiguration.class);

    /**
     * @return a started {@code redis-server}, closed (stopped, its temporary data deleted) with the context
     * @throws UncheckedIOException when it cannot be launched
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public RedisServerProcess hourglassEmbeddedRedis() {
        RedisServerProcess redis =
                RedisServerProcess.builder().closeAtJvmExit(false).build();
        try {
            redis.start();
        } catch (IOException e) {
            throw new UncheckedIOException("hourglass.embedded-redis.enabled: cannot start redis-server", e);
        }
        log.warn(
                "hourglass.embedded-redis.enabled=true: started redis-server {} at {} for development; its data is"
                        + " lost when the application stops",
                redis.version(),
                redis.uri());
        return redis;
    }

    /**
     * @param redis the embedded Redis
     * @return the connection to it, which wins over {@code hourglass.redis.*} and {@code spring.data.redis.*}
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassRedisConnection hourglassRedisConnection(RedisServerProcess redis) {
        return HourglassRedisConnection.standalone(RedisURI.create(redis.uri()), SOURCE);
    }
}
