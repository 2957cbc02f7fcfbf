package io.hourglass.server;

import io.hourglass.spring.HourglassBuilderCustomizer;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.time.Duration;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * A cold tier for the server's tests: a {@link JdbcColdTier} bean on the PostgreSQL at {@code test.tier-jdbc-url} (as
 * user {@code test.tier-jdbc-user}) and a customizer that gives it to the server's {@code Hourglass} with the horizon
 * {@code test.tier-horizon}. Not a {@code @Configuration}, so that the server's component scan leaves it out: a test
 * names it as a source of its application. Connections are not pooled, so that nothing of Spring Boot (its JDBC health
 * check, its Flyway) takes a data source bean for its own, and a call fails within a second while PostgreSQL is down.
 */
class ColdTierTestConfiguration {

    @Bean(destroyMethod = "close")
    JdbcColdTier coldTier(Environment environment, HourglassProperties properties) {
        PGSimpleDataSource database = new PGSimpleDataSource();
        database.setURL(environment.getRequiredProperty("test.tier-jdbc-url"));
        database.setUser(environment.getRequiredProperty("test.tier-jdbc-user"));
        database.setConnectTimeout(1);
        return JdbcColdTier.builder()
                .namespace(properties.getNamespace())
                .dataSource(database)
                .build();
    }

    @Bean
    HourglassBuilderCustomizer coldTierCustomizer(JdbcColdTier tier, Environment environment) {
        Duration horizon = Duration.parse(environment.getRequiredProperty("test.tier-horizon"));
        return builder -> builder.coldTier(tier, horizon);
    }
}
