package io.hourglass.spring.autoconfigure;

import io.hourglass.Hourglass;
import io.hourglass.spring.metrics.HourglassMetrics;
import io.hourglass.spring.metrics.HourglassTopicGauges;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer metrics of Hourglass when the application has a {@link MeterRegistry} (Spring Boot Actuator): the
 * {@link HourglassMetrics} counters and timers, and the {@link HourglassTopicGauges} per-topic gauges. Meter names
 * follow Micrometer's conventions ({@code hourglass.jobs.scheduled}, {@code hourglass.job.lateness}, …, tag
 * {@code topic}); filter them with {@code management.metrics.enable.hourglass=false}.
 */
@AutoConfiguration(
        after = HourglassAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, Hourglass.class})
@ConditionalOnBean({MeterRegistry.class, HourglassProperties.class})
public class HourglassMetricsAutoConfiguration {

    /**
     * @param registry the application's registry
     * @return the counters and timers, a {@link io.hourglass.JobEvents} the {@link Hourglass} bean reports to
     */
    @Bean
    @ConditionalOnMissingBean
    public HourglassMetrics hourglassMetrics(MeterRegistry registry) {
        return new HourglassMetrics(registry);
    }

    /**
     * @param hourglass the instance whose namespace is read
     * @param properties {@code hourglass.metrics.refresh-interval}
     * @return the per-topic gauges, bound to the registry by Spring Boot
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(Hourglass.class)
    public HourglassTopicGauges hourglassTopicGauges(Hourglass hourglass, HourglassProperties properties) {
        return new HourglassTopicGauges(hourglass, properties.getMetrics().getRefreshInterval());
    }
}
