package io.hourglass.spring.boot3;

import io.hourglass.Hourglass;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.autoconfigure.HourglassAutoConfiguration;
import io.hourglass.spring.autoconfigure.NoHourglassRedisPropertiesCondition;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Spring Boot 3.5: connects Hourglass where the application's Spring Data Redis connects
 * ({@link RedisConnectionDetails}: the {@code spring.data.redis.*} properties, or a service connection such as
 * Testcontainers' or Docker Compose's), unless {@code hourglass.redis.uri} or {@code hourglass.redis.cluster-nodes} is
 * set or the application declares its own {@link HourglassRedisConnection}.
 */
@AutoConfiguration(after = RedisAutoConfiguration.class, before = HourglassAutoConfiguration.class)
@ConditionalOnClass({Hourglass.class, RedisConnectionDetails.class})
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnBean(RedisConnectionDetails.class)
@Conditional(NoHourglassRedisPropertiesCondition.class)
public class HourglassRedisPropertiesAutoConfiguration {

    /**
     * @param details the application's Redis connection
     * @param properties {@code spring.data.redis.*}, for the URL's scheme and the client name
     * @param environment to read {@code hourglass.redis.tls-trusted-certificates}
     * @return the same connection for Hourglass
     * @throws IllegalStateException naming the setting Hourglass cannot honour
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassRedisConnection hourglassRedisConnection(
            RedisConnectionDetails details, ObjectProvider<RedisProperties> properties, Environment environment) {
        boolean trustConfigured = Binder.get(environment)
                .bind("hourglass.redis.tls-trusted-certificates", String.class)
                .isBound();
        return Boot3RedisSettings.of(details, properties.getIfAvailable(RedisProperties::new))
                .toHourglassConnection(trustConfigured);
    }
}
