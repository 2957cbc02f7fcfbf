package io.hourglass.spring.boot4;

import io.hourglass.spring.json.Jackson3PayloadCodec;
import io.hourglass.spring.testsuite.BootLine;
import java.util.List;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.ApplicationContext;

/** Spring Boot 4.x, as the suites see it. */
final class Boot4Line implements BootLine {
    static final Boot4Line INSTANCE = new Boot4Line();

    private Boot4Line() {}

    @Override
    public String name() {
        return "Spring Boot 4";
    }

    @Override
    public Class<?> dataRedisAutoConfiguration() {
        return DataRedisAutoConfiguration.class;
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
        return tools.jackson.databind.json.JsonMapper.class;
    }

    @Override
    public Class<?> expectedCodecType() {
        return Jackson3PayloadCodec.class;
    }

    @Override
    public Class<?> connectionDetailsType() {
        return DataRedisConnectionDetails.class;
    }

    @Override
    public Object standaloneConnectionDetails(String host, int port) {
        return new DataRedisConnectionDetails() {
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
