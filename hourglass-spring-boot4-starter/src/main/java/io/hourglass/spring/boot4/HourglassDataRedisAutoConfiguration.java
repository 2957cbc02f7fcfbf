package io.hourglass.spring.boot4;

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
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Spring Boot 4.x: connects Hourglass where the application's Spring Data Redis connects
 * ({@link DataRedisConnectionDetails}: the {@code spring.data.redis.*} properties, or a service connection such as
 * Testcontainers' or Docker Compose's), unless {@code hourglass.redis.uri} or {@code hourglass.redis.cluster-nodes} is
 * set or the application declares its own {@link HourglassRedisConnection}.
 */
@AutoConfiguration(after = DataRedisAutoConfiguration.class, before = HourglassAutoConfiguration.class)
@ConditionalOnClass({Hourglass.class, DataRedisConnectionDetails.class})
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnBean(DataRedisConnectionDetails.class)
@Conditional(NoHourglassRedisPropertiesCondition.class)
public class HourglassDataRedisAutoConfiguration {

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
            DataRedisConnectionDetails details,
            ObjectProvider<DataRedisProperties> properties,
            Environment environment) {
        boolean trustConfigured = Binder.get(environment)
                .bind("hourglass.redis.tls-trusted-certificates", String.class)
                .isBound();
        return Boot4RedisSettings.of(details, properties.getIfAvailable(DataRedisProperties::new))
                .toHourglassConnection(trustConfigured);
    }
}
