package io.hourglass.spring.boot4;

import io.hourglass.Hourglass;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.autoconfigure.HourglassAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import io.hourglass.spring.health.HourglassHealthCheck;
import io.hourglass.spring.listener.HourglassListenerContainer;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 4.x: the {@code hourglass} health indicator, when spring-boot-health (Actuator) is present; off with
 * {@code management.health.hourglass.enabled=false}.
 */
@AutoConfiguration(after = HourglassAutoConfiguration.class)
@ConditionalOnClass({Hourglass.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean({Hourglass.class, HourglassProperties.class})
@ConditionalOnEnabledHealthIndicator("hourglass")
public class HourglassHealthContributorAutoConfiguration {

    /**
     * @param hourglass the instance
     * @param listeners the listener workers, if any
     * @param properties {@code hourglass.health.stall-threshold}
     * @param connection the Redis connection, for the details
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "hourglassHealthIndicator")
    public HourglassHealthIndicator hourglassHealthIndicator(
            Hourglass hourglass,
            ObjectProvider<HourglassListenerContainer> listeners,
            HourglassProperties properties,
            ObjectProvider<HourglassRedisConnection> connection) {
        HourglassListenerContainer container = listeners.getIfAvailable();
        return new HourglassHealthIndicator(new HourglassHealthCheck(
                hourglass,
                () -> container == null ? List.of() : container.listeners(),
                properties.getHealth().getStallThreshold(),
                Clock.systemUTC(),
                connection.getIfAvailable() == null
                        ? "unknown"
                        : connection.getIfAvailable().toString()));
    }
}
