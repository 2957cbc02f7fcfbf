package io.hourglass.spring.autoconfigure;

import io.hourglass.spring.HourglassBuilderCustomizer;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The cold tier, when {@code hourglass-tier-jdbc} is on the class path and {@code hourglass.tier.jdbc.url} is set: one
 * {@link JdbcColdTier} bean for the namespace of the {@link io.hourglass.Hourglass} bean, with its own pool (HikariCP,
 * at most 8 connections, no {@code DataSource} bean) and its table made by Flyway at start-up, and an
 * {@link HourglassBuilderCustomizer} that hands it to the builder with {@code hourglass.tier.horizon}
 * ({@code HourglassBuilder.coldTier}); the instance starts the feeder (unless
 * {@code hourglass.tier.feeder.enabled=false}) and stops it when it closes, and the tier's pool is closed after it.
 * Backs off when the application declares a {@link JdbcColdTier} bean. The conditions name the tier's class as a
 * string, so that an application without the module never loads it.
 */
@AutoConfiguration(after = HourglassAutoConfiguration.class)
@ConditionalOnClass(name = "io.hourglass.tier.jdbc.JdbcColdTier")
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@Conditional(JdbcUrlCondition.Tier.class)
@ConditionalOnMissingBean(type = "io.hourglass.tier.jdbc.JdbcColdTier")
public class HourglassColdTierAutoConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(HourglassColdTierAutoConfiguration.class);
    private static final String PREFIX = "hourglass.tier.";

    /**
     * @param properties {@code hourglass.namespace}, {@code hourglass.max-delay} and {@code hourglass.tier.*}
     * @return the tier, its table created or upgraded; closed with the context, after the {@code Hourglass} bean
     * @throws IllegalStateException naming the {@code hourglass.tier.*} property whose value is bad, or
     *     {@code hourglass.tier.jdbc.url} when PostgreSQL cannot be reached or refuses the table
     */
    @Bean(destroyMethod = "close")
    public JdbcColdTier hourglassColdTier(HourglassProperties properties) {
        HourglassProperties.Tier tier = properties.getTier();
        String url = JdbcSettings.postgresUrl(PREFIX + "jdbc.url", tier.getJdbc());
        horizon(properties);
        HourglassProperties.Tier.Feeder feeder = tier.getFeeder();
        JdbcColdTier.Builder builder = JdbcColdTier.builder()
                .namespace(properties.getNamespace())
                .jdbc(
                        url,
                        JdbcSettings.blankToNull(tier.getJdbc().getUser()),
                        JdbcSettings.blankToNull(tier.getJdbc().getPassword()))
                .feeder(feeder.isEnabled());
        JdbcSettings.named(PREFIX + "feeder.batch-size", () -> builder.batchSize(feeder.getBatchSize()));
        JdbcSettings.named(PREFIX + "feeder.lead-time", () -> builder.leadTime(feeder.getLeadTime()));
        JdbcSettings.named(PREFIX + "feeder.poll-interval", () -> builder.pollInterval(feeder.getPollInterval()));
        JdbcColdTier built;
        try {
            built = builder.build();
        } catch (RuntimeException e) {
            // Not chained: the driver's and Flyway's messages may quote the URL with its password.
            throw new IllegalStateException(PREFIX + "jdbc.url: the cold tier cannot create its table in PostgreSQL at "
                    + HourglassProperties.Jdbc.maskJdbcUrl(url) + ": " + rootMessage(e));
        }
        LOG.info(
                "cold tier: jobs of namespace {} due more than {} ahead wait in PostgreSQL {}; feeder {}",
                properties.getNamespace(),
                tier.getHorizon(),
                tier.getJdbc(),
                feeder.isEnabled() ? "on" : "off");
        return built;
    }

    /**
     * @param tier the tier
     * @param properties {@code hourglass.tier.horizon}
     * @return hands the tier to the {@code Hourglass} bean's builder
     */
    @Bean
    public HourglassBuilderCustomizer hourglassColdTierCustomizer(JdbcColdTier tier, HourglassProperties properties) {
        Duration horizon = horizon(properties);
        return builder -> builder.coldTier(tier, horizon);
    }

    private static Duration horizon(HourglassProperties properties) {
        Duration horizon = properties.getTier().getHorizon();
        if (horizon == null) {
            throw new IllegalStateException(PREFIX + "horizon: required with " + PREFIX
                    + "jdbc.url: jobs due more than this far ahead wait" + " in PostgreSQL, e.g. 1h");
        }
        if (horizon.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalStateException(PREFIX + "horizon: must be at least 1s, got " + horizon);
        }
        if (horizon.compareTo(properties.getMaxDelay()) > 0) {
            throw new IllegalStateException(PREFIX + "horizon: must be at most hourglass.max-delay ("
                    + properties.getMaxDelay() + "), got " + horizon);
        }
        return horizon;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return HourglassProperties.Jdbc.maskJdbcUrl(root == e ? e.toString() : e + "; caused by: " + root);
    }
}
