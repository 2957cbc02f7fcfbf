package io.hourglass.spring.autoconfigure;

import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.spring.HourglassConnectionException;
import io.hourglass.spring.HourglassRedisConnection;
import io.lettuce.core.RedisException;
import java.util.UUID;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The job history's archiver, when {@code hourglass-history-jdbc} is on the class path and
 * {@code hourglass.history.jdbc.url} is set: a {@link HistoryArchiver} on the {@link HourglassRedisConnection}, the
 * namespace and the shards of the {@link io.hourglass.Hourglass} bean, writing to its own small pool (HikariCP, at most
 * 4 connections, no {@code DataSource} bean), started once its schema is in PostgreSQL and closed with the context; and
 * its {@link HistoryStore} for queries. {@code hourglass.history.stream-length} then defaults to 100,000, so the
 * application's own jobs write their completion events. Backs off when the application declares a
 * {@link HistoryArchiver} bean. The conditions name the archiver's class as a string, so that an application without
 * the module never loads it.
 */
@AutoConfiguration(after = HourglassAutoConfiguration.class)
@ConditionalOnClass(name = "io.hourglass.history.jdbc.HistoryArchiver")
@ConditionalOnProperty(prefix = "hourglass", name = "enabled", havingValue = "true", matchIfMissing = true)
@Conditional(JdbcUrlCondition.History.class)
@ConditionalOnMissingBean(type = "io.hourglass.history.jdbc.HistoryArchiver")
public class HourglassHistoryAutoConfiguration {
    private static final String PREFIX = "hourglass.history.";

    /**
     * @param properties {@code hourglass.namespace}, {@code hourglass.shards} and {@code hourglass.history.*}
     * @param redis where the application's Hourglass connects; the archiver reads the same Redis
     * @return the pool and the archiver, closed with the context
     * @throws IllegalStateException naming the {@code hourglass.history.*} property whose value is bad
     * @throws HourglassConnectionException when Redis cannot be reached, whatever {@code hourglass.fail-fast} says
     */
    @Bean(destroyMethod = "close")
    HistoryArchiving hourglassHistoryArchiving(HourglassProperties properties, HourglassRedisConnection redis) {
        HourglassProperties.History history = properties.getHistory();
        JdbcSettings.postgresUrl(PREFIX + "jdbc.url", history.getJdbc());
        HistoryArchiver.Builder builder = HistoryArchiver.builder();
        JdbcSettings.named(
                "hourglass.shards", () -> builder.namespace(properties.getNamespace(), properties.getShards()));
        JdbcSettings.named(PREFIX + "retention", () -> builder.retention(history.getRetention()));
        JdbcSettings.named(PREFIX + "batch-size", () -> builder.batchSize(history.getBatchSize()));
        String group = JdbcSettings.blankToNull(history.getConsumerGroup());
        if (group == null) {
            throw new IllegalStateException(PREFIX + "consumer-group: must not be blank");
        }
        String name = JdbcSettings.blankToNull(history.getConsumerName());
        builder.consumer(group, name != null ? name : "archiver-" + UUID.randomUUID());
        if (redis.isCluster()) {
            builder.clusterNodes(redis.clusterNodes().toArray(String[]::new));
        } else {
            // toURI keeps the credentials (toString masks them).
            builder.redisUri(redis.redisUri().toURI().toString());
        }
        try {
            return new HistoryArchiving(
                    history.getJdbc(),
                    builder,
                    "namespace " + properties.getNamespace() + " (" + properties.getShards() + " shards)");
        } catch (RedisException e) {
            // Even with hourglass.fail-fast=false: the archiver is a bean, so it cannot wait for Redis to answer.
            throw new HourglassConnectionException(redis, e);
        }
    }

    /**
     * @param archiving the pool and the archiver
     * @return the archiver; closed with {@code archiving}, not here
     */
    @Bean(destroyMethod = "")
    public HistoryArchiver hourglassHistoryArchiver(HistoryArchiving archiving) {
        return archiving.archiver();
    }

    /**
     * @param archiver the archiver
     * @return its store, for queries (a page of the history, by topic, id, outcome and time)
     */
    @Bean
    @ConditionalOnMissingBean
    public HistoryStore hourglassHistoryStore(HistoryArchiver archiver) {
        return archiver.store();
    }
}
