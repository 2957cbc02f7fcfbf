package io.hourglass.server.history;

import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The job history, when {@code hourglass.history-jdbc-url} is set ({@code --history-jdbc-url}): a {@link JobHistory} on
 * the server's Redis, namespace and shards, and its {@link HistoryStore} and {@link HistoryArchiver} as beans (the
 * store for {@code GET /v1/history}, the archiver for the starter's dropped-events meter). No {@code DataSource} bean:
 * the pool is the history's own, so nothing else of Spring Boot (its JDBC health check, its Flyway) picks it up.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty("hourglass.history-jdbc-url")
public class HistoryConfiguration {
    /** The archiver's retention when {@code hourglass.history-retention} is not set. */
    static final Duration DEFAULT_RETENTION = Duration.ofDays(30);

    /**
     * @param environment the server's settings ({@code hourglass.history-jdbc-url}, {@code -user}, {@code -password},
     *     {@code hourglass.history-retention})
     * @param redis where the server's Hourglass connects
     * @param properties the starter's settings: namespace and shards
     * @return the history, closed with the context
     */
    @Bean(destroyMethod = "close")
    public JobHistory jobHistory(
            Environment environment, HourglassRedisConnection redis, HourglassProperties properties) {
        String retention = environment.getProperty("hourglass.history-retention");
        JobHistory.Settings settings = new JobHistory.Settings(
                environment.getRequiredProperty("hourglass.history-jdbc-url").trim(),
                blankToNull(environment.getProperty("hourglass.history-jdbc-user")),
                blankToNull(environment.getProperty("hourglass.history-jdbc-password")),
                retention == null || retention.isBlank()
                        ? DEFAULT_RETENTION
                        : DurationStyle.detectAndParse(retention.trim()));
        return new JobHistory(settings, redis, properties.getNamespace(), properties.getShards());
    }

    /**
     * @param history the history
     * @return its store, for queries
     */
    @Bean
    public HistoryStore historyStore(JobHistory history) {
        return history.store();
    }

    /**
     * @param history the history
     * @return its archiver; closed by the history, not here
     */
    @Bean(destroyMethod = "")
    public HistoryArchiver historyArchiver(JobHistory history) {
        return history.archiver();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
