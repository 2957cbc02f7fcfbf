package io.hourglass.spring.autoconfigure;

import io.hourglass.tier.jdbc.JdbcColdTier;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The cold tier's meters when the application has a {@link JdbcColdTier} bean (module {@code hourglass-tier-jdbc}:
 * {@link HourglassColdTierAutoConfiguration}'s or its own) and Micrometer: {@value #FEEDER_LAG} (Prometheus
 * {@code hourglass_tier_feeder_lag_seconds}), how far the feeder is behind ({@link JdbcColdTier#lag()}, kept in ms, 0
 * while it keeps up), and {@value #FEEDER_MOVED} (Prometheus {@code hourglass_tier_feeder_moved_jobs_total}), the jobs
 * it moved into Redis ({@link JdbcColdTier#movedJobs()}). The conditions name the classes as strings, and only the
 * nested configuration mentions the tier's type, so that an application without {@code hourglass-tier-jdbc} never loads
 * it.
 */
@AutoConfiguration(
        after = {HourglassMetricsAutoConfiguration.class, HourglassColdTierAutoConfiguration.class},
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration"
        })
@ConditionalOnClass(name = {"io.micrometer.core.instrument.MeterRegistry", "io.hourglass.tier.jdbc.JdbcColdTier"})
public class HourglassColdTierMetricsAutoConfiguration {
    /** The lag's name: a time gauge, no tags. */
    public static final String FEEDER_LAG = "hourglass.tier.feeder.lag";

    /** The moved jobs' name: a counter of jobs, no tags. */
    public static final String FEEDER_MOVED = "hourglass.tier.feeder.moved";

    /** The meters of the application's cold tier. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(type = "io.hourglass.tier.jdbc.JdbcColdTier")
    static class FeederMeters {
        /**
         * @param tier the application's cold tier
         * @return the binder of the feeder's lag and moved jobs, bound to every registry by Spring Boot
         */
        @Bean
        MeterBinder hourglassColdTierFeeder(JdbcColdTier tier) {
            return registry -> {
                TimeGauge.builder(FEEDER_LAG, tier, TimeUnit.MILLISECONDS, t -> t.lag()
                                .toMillis())
                        .description("how long ago the earliest job still in the cold tier came within the horizon;"
                                + " 0 while the feeder keeps up")
                        .register(registry);
                FunctionCounter.builder(FEEDER_MOVED, tier, JdbcColdTier::movedJobs)
                        .description("jobs the cold tier's feeder moved into Redis")
                        .baseUnit("jobs")
                        .register(registry);
            };
        }
    }
}
