package io.hourglass.spring.autoconfigure;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.history.jdbc.HistoryArchiver;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job history of the auto-configuration: a connection pool to PostgreSQL, and the archiver that moves the
 * namespace's completion events into it. The application starts whether or not PostgreSQL is up: a background thread
 * creates the schema (Flyway), retrying every few seconds, and starts the archiver once it is there; until then the
 * events wait in Redis, and queries of the store throw {@link java.sql.SQLException} after {@link #CONNECTION_TIMEOUT}.
 * The pool is no {@code DataSource} bean, so nothing else of Spring Boot (its JDBC health check, its Flyway) picks it
 * up. Thread-safe.
 */
final class HistoryArchiving implements AutoCloseable {
    /** How long a query or a batch waits for a connection before it fails. */
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(HistoryArchiving.class);
    private static final Duration MIGRATION_RETRY = Duration.ofSeconds(5);

    private final HikariDataSource pool;
    private final HistoryArchiver archiver;
    private final Thread starter;
    private volatile boolean closed;

    /**
     * Opens the pool (without waiting for PostgreSQL), builds the archiver on {@code builder} (which connects to Redis)
     * and starts the background thread that creates the schema and then starts the archiver.
     *
     * @param jdbc where the history lives; its URL checked already
     * @param builder the archiver's Redis, namespace and settings, without a data source
     * @param shown what the start-up log line says the archiver does, without secrets
     */
    HistoryArchiving(HourglassProperties.Jdbc jdbc, HistoryArchiver.Builder builder, String shown) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbc.getUrl().trim());
        config.setUsername(JdbcSettings.blankToNull(jdbc.getUser()));
        config.setPassword(JdbcSettings.blankToNull(jdbc.getPassword()));
        config.setPoolName("hourglass-history");
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        // The application starts without its database; the pool connects once PostgreSQL answers.
        config.setInitializationFailTimeout(-1);
        this.pool = new HikariDataSource(config);
        try {
            this.archiver = builder.dataSource(pool).migrate(false).build();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        LOG.info("job history: archiving {} into {}", shown, jdbc);
        this.starter = new Thread(this::migrateThenArchive, "hourglass-history-start");
        starter.setDaemon(true);
        starter.start();
    }

    /** @return the archiver */
    HistoryArchiver archiver() {
        return archiver;
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
                            "job history: cannot create its schema in PostgreSQL, retrying every {} s; the events"
                                    + " wait in Redis meanwhile: {}",
                            MIGRATION_RETRY.toSeconds(),
                            HourglassProperties.Jdbc.maskJdbcUrl(e.toString()));
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

    /** Stops the archiver (after its pass), then closes its Redis connection and the pool. */
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
}
