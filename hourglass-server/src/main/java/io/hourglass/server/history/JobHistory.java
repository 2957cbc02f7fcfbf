package io.hourglass.server.history;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.spring.HourglassRedisConnection;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's job history ({@code --history-jdbc-url}): a connection pool to PostgreSQL, the archiver that moves the
 * namespace's completion events into it, and the store that {@code GET /v1/history} reads. The server starts whether or
 * not PostgreSQL is up: the schema is created (Flyway) by a background thread that retries every few seconds, and the
 * archiver starts once it is there; until then the events wait in Redis and queries are answered 503. Thread-safe.
 */
public final class JobHistory implements AutoCloseable {
    /** How long a query waits for a connection before it is answered 503. */
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(JobHistory.class);
    private static final Duration MIGRATION_RETRY = Duration.ofSeconds(5);

    private final HikariDataSource pool;
    private final HistoryArchiver archiver;
    private final Thread starter;
    private volatile boolean closed;

    /**
     * Connects to Redis and starts the background thread that creates the schema and then the archiver.
     *
     * @param settings where the history lives and how long it keeps entries; not null
     * @param redis where the server's Hourglass connects; the archiver reads the same Redis; not null
     * @param namespace the server's namespace; not null
     * @param shards its shard count, at least 1
     */
    public JobHistory(Settings settings, HourglassRedisConnection redis, String namespace, int shards) {
        Objects.requireNonNull(settings, "settings");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setPoolName("hourglass-history");
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        // The server starts without its database; the pool connects once PostgreSQL answers.
        config.setInitializationFailTimeout(-1);
        this.pool = new HikariDataSource(config);
        HistoryArchiver.Builder builder = HistoryArchiver.builder()
                .namespace(namespace, shards)
                .dataSource(pool)
                .retention(settings.retention())
                .migrate(false);
        if (redis.isCluster()) {
            builder.clusterNodes(redis.clusterNodes().toArray(String[]::new));
        } else {
            // toURI keeps the credentials (toString masks them).
            builder.redisUri(redis.redisUri().toURI().toString());
        }
        try {
            this.archiver = builder.build();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        LOG.info("job history: archiving namespace {} ({} shards) into {}", namespace, shards, settings);
        this.starter = new Thread(this::migrateThenArchive, "hourglass-history-start");
        starter.setDaemon(true);
        starter.start();
    }

    /** @return the archiver, for its metrics */
    public HistoryArchiver archiver() {
        return archiver;
    }

    /** @return the store, for queries */
    public HistoryStore store() {
        return archiver.store();
    }

    private void migrateThenArchive() {
        boolean warned = false;
        while (!closed) {
            try {
                archiver.store().migrate();
                archiver.start();
                if (warned) {
                    LOG.info("job history: PostgreSQL answers; archiving started");
                }
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                if (!warned) {
                    LOG.warn(
                            "job history: cannot create its schema in PostgreSQL, retrying every {} s; the"
                                    + " events wait in Redis meanwhile: {}",
                            MIGRATION_RETRY.toSeconds(),
                            e.toString());
                    warned = true;
                }
            }
            try {
                Thread.sleep(MIGRATION_RETRY.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops the archiver (after its pass), then closes the Redis connection and the pool. */
    @Override
    public void close() {
        closed = true;
        starter.interrupt();
        try {
            starter.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            archiver.close();
        } finally {
            pool.close();
        }
    }

    /**
     * The history's settings, from the server's flags.
     *
     * @param jdbcUrl a PostgreSQL JDBC URL; not null
     * @param user the database user, or null to take it from the URL
     * @param password the password, or null; never logged
     * @param retention how long an entry is kept after its job ended; {@link Duration#ZERO} keeps entries forever
     */
    public record Settings(String jdbcUrl, String user, String password, Duration retention) {
        /** @throws NullPointerException naming a missing {@code jdbcUrl} or {@code retention} */
        public Settings {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            Objects.requireNonNull(retention, "retention");
        }

        /** @return the settings with the password masked */
        @Override
        public String toString() {
            return "Settings[jdbcUrl=" + jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1****") + ", user=" + user
                    + ", password=" + (password == null ? null : "****") + ", retention=" + retention + "]";
        }
    }
}
