package io.hourglass.spring.boot3;

import io.hourglass.spring.json.Jackson2PayloadCodec;
import io.hourglass.spring.testsuite.BootLine;
import java.util.List;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.context.ApplicationContext;

/** Spring Boot 3.5, as the suites see it. */
final class Boot3Line implements BootLine {
    static final Boot3Line INSTANCE = new Boot3Line();

    private Boot3Line() {}

    @Override
    public String name() {
        return "Spring Boot 3.5";
    }

    @Override
    public Class<?> dataRedisAutoConfiguration() {
        return RedisAutoConfiguration.class;
    }

    @Override
    public Class<?> jacksonAutoConfiguration() {
        return JacksonAutoConfiguration.class;
    }

    @Override
    public List<Class<?>> metricsAutoConfigurations() {
        return List.of(
                MetricsAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class);
    }

    @Override
    public Class<?> jsonMapperType() {
        return com.fasterxml.jackson.databind.ObjectMapper.class;
    }

    @Override
    public Class<?> expectedCodecType() {
        return Jackson2PayloadCodec.class;
    }

    @Override
    public Class<?> connectionDetailsType() {
        return RedisConnectionDetails.class;
    }

    @Override
    public Object standaloneConnectionDetails(String host, int port) {
        return new RedisConnectionDetails() {
            @Override
            public Standalone getStandalone() {
                return Standalone.of(host, port);
            }
        };
    }

    @Override
    public Class<?> healthIndicatorType() {
        return HourglassHealthIndicator.class;
    }

    @Override
    public HealthView health(ApplicationContext context) {
        Health health = context.getBean("hourglassHealthIndicator", HealthIndicator.class)
                .health();
        return new HealthView(health.getStatus().getCode(), health.getDetails());
    }
}
