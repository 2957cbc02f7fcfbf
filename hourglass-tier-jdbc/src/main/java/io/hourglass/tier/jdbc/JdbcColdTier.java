package io.hourglass.tier.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.ColdTier;
import io.hourglass.ColdTierUnavailableException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The cold tier on PostgreSQL: jobs due beyond the horizon of one namespace, one row each in
 * {@code hourglass_cold_jobs} (schema by Flyway), and the feeder that moves them into Redis before they come within the
 * horizon. Give it to {@link io.hourglass.HourglassBuilder#coldTier}; the instance starts the feeder when built and
 * stops it when closed, and the caller closes the tier (and with it the pool it made) after the instance.
 *
 * <pre>{@code
 * JdbcColdTier tier = JdbcColdTier.builder().namespace("shop").jdbc("jdbc:postgresql://db/app", "app", pw).build();
 * Hourglass hourglass = Hourglass.builder().namespace("shop").coldTier(tier, Duration.ofHours(1)).build();
 * }</pre>
 *
 * <p>Every write is one statement in its own transaction, so a stored job is as durable as PostgreSQL's commit.
 * Thread-safe. Methods throw {@link ColdTierUnavailableException} when PostgreSQL refuses or cannot be reached.
 */
public final class JdbcColdTier implements ColdTier, AutoCloseable {
    /** The table that holds the jobs. */
    public static final String TABLE = ColdJobTable.TABLE;
    /** The most waiting jobs {@link #backlog()} counts exactly: {@value}. */
    public static final int COUNT_LIMIT = 100_000;

    private final String namespace;
    private final DataSource dataSource;
    private final HikariDataSource ownPool;
    private final ColdJobTable table;
    private final int batchSize;
    private final Duration pollInterval;
    private final Duration leadTime;
    private final boolean feederThread;
    private final Object lock = new Object();
    private Feeder feeder;
    private Duration horizon;

    private JdbcColdTier(Builder b, DataSource dataSource, HikariDataSource ownPool) {
        this.namespace = b.namespace;
        this.dataSource = dataSource;
        this.ownPool = ownPool;
        this.table = new ColdJobTable(b.namespace);
        this.batchSize = b.batchSize;
        this.pollInterval = b.pollInterval;
        this.leadTime = b.leadTime;
        this.feederThread = b.feederThread;
    }

    /**
     * @return a builder; {@link Builder#namespace} and a data source ({@link Builder#jdbc} or
     *     {@link Builder#dataSource}) are required
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String namespace() {
        return namespace;
    }

    /**
     * Creates or upgrades the table (Flyway, schema history in {@code hourglass_tier_schema}); safe to run from several
     * processes at once. {@link Builder#build()} runs it unless told not to.
     *
     * @throws org.flywaydb.core.api.FlywayException when the database refuses
     */
    public void migrate() {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:io/hourglass/tier/jdbc/migration")
                .table("hourglass_tier_schema")
                // The database may hold an application's tables already: that is not a reason to refuse.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }

    /**
     * Starts the feeder, unless {@link Builder#feeder(boolean)} turned it off. Called by the {@code Hourglass} instance
     * this tier was given to.
     *
     * @throws IllegalStateException when already started: a tier serves one instance
     */
    @Override
    public void start(Duration horizon, Mover mover) {
        synchronized (lock) {
            if (feeder != null) {
                throw new IllegalStateException("this cold tier was started already: give each Hourglass its own");
            }
            feeder =
                    new Feeder(dataSource, table, horizon, leadTime, Objects.requireNonNull(mover, "mover"), batchSize);
            this.horizon = horizon;
            if (feederThread) {
                feeder.start(pollInterval);
            }
        }
    }

    /** Stops the feeder, waiting up to 10 s for its batch to end. Called by the instance's {@code close()}. */
    @Override
    public void stop() {
        Feeder running;
        synchronized (lock) {
            running = feeder;
        }
        if (running != null) {
            running.stop();
        }
    }

    /**
     * Moves one batch: the earliest due jobs up to now + horizon + {@link Builder#leadTime}, at most
     * {@link Builder#batchSize}, each scheduled into Redis (rejecting conflicts) and deleted once Redis accepted it or
     * already had it. For tools and tests; the feeder thread calls the same.
     *
     * @return how many jobs left the cold tier
     * @throws IllegalStateException when the tier was not started by an instance
     * @throws ColdTierUnavailableException when PostgreSQL fails
     * @throws io.hourglass.RedisUnavailableException when Redis fails; the jobs Redis accepted before are deleted, the
     *     rest stay
     */
    public int feedOnce() {
        return started().feedOnce().moved();
    }

    /**
     * How far the feeder is behind: how long ago the earliest job still in the cold tier came within the horizon, as of
     * the feeder's last pass; {@link Duration#ZERO} while it keeps up (jobs are moved a lead time before that). A job
     * is late because of the feeder only once this exceeds the horizon.
     *
     * @return the lag; zero before the first pass
     */
    public Duration lag() {
        Feeder f;
        synchronized (lock) {
            f = feeder;
        }
        return f == null ? Duration.ZERO : f.lag();
    }

    /** @return how many jobs this tier's feeder moved into Redis (or found there) since it started */
    public long movedJobs() {
        Feeder f;
        synchronized (lock) {
            f = feeder;
        }
        return f == null ? 0 : f.moved();
    }

    /**
     * @return the horizon the instance started this tier with (jobs due further ahead are stored here), or empty before
     *     an instance started it
     */
    public Optional<Duration> horizon() {
        synchronized (lock) {
            return Optional.ofNullable(horizon);
        }
    }

    /**
     * Reads from PostgreSQL what waits in this tier for the namespace, for dashboards and tools; works whether or not
     * the tier was started. Its cost stays bounded however large the table: one read-only transaction of three
     * statements, a count that stops after {@link #COUNT_LIMIT} + 1 of the namespace's rows (an index-only scan of the
     * primary key, or a sequential scan that stops there when the namespace holds most of the table), the earliest due
     * time (one probe of the due-time index), and the planner's row estimate of the whole table
     * ({@code pg_class.reltuples}, no scan).
     *
     * @return the backlog; not null
     * @throws ColdTierUnavailableException when PostgreSQL fails
     */
    public Backlog backlog() {
        return backlog(COUNT_LIMIT);
    }

    /** {@link #backlog()} with another count limit, for tests. */
    Backlog backlog(int countLimit) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setReadOnly(true);
            // One snapshot, so that the count and the earliest due time agree.
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Map<String, Long> topics = table.countByTopic(c, countLimit + 1);
                Instant earliest = table.earliestDue(c);
                long estimate = table.estimatedRows(c);
                c.commit();
                long jobs = topics.values().stream().mapToLong(Long::longValue).sum();
                return jobs > countLimit
                        ? new Backlog(countLimit, false, null, earliest, estimate)
                        : new Backlog(jobs, true, topics, earliest, estimate);
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
        } catch (SQLException e) {
            throw unavailable("reading the backlog", e);
        }
    }

    /**
     * What waits in the cold tier for one namespace, as {@link #backlog()} read it.
     *
     * @param jobs the jobs stored, when {@code exact}; else {@link #COUNT_LIMIT}, and more are stored
     * @param exact whether {@code jobs} is the exact count (at most {@link #COUNT_LIMIT} jobs are stored)
     * @param topics jobs per topic, sorted by topic, when {@code exact}; null when more jobs are stored than the count
     *     reads
     * @param earliestDue the earliest due time among the stored jobs (also those set aside because Redis refused them),
     *     or null when none is stored
     * @param tableRowsEstimate the planner's estimate of the table's rows, of every namespace the database holds, as of
     *     its last analyse; -1 when the table was never analysed
     */
    public record Backlog(
            long jobs, boolean exact, Map<String, Long> topics, Instant earliestDue, long tableRowsEstimate) {
        /** Copies {@code topics}. */
        public Backlog {
            topics = topics == null ? null : Collections.unmodifiableMap(new TreeMap<>(topics));
        }

        /**
         * How far a feeder would be behind now, by the definition of {@link JdbcColdTier#lag()}: how long ago the
         * earliest stored job came within the horizon, zero when it has not yet.
         *
         * @param horizon the namespace's horizon; not null
         * @param now the time to measure at; not null
         * @return the lag, never negative
         */
        public Duration lag(Duration horizon, Instant now) {
            if (earliestDue == null) {
                return Duration.ZERO;
            }
            Duration behind = Duration.between(earliestDue, now.plus(horizon));
            return behind.isNegative() ? Duration.ZERO : behind;
        }
    }

    /** @return the feeder, for tests */
    Feeder feeder() {
        return started();
    }

    private Feeder started() {
        synchronized (lock) {
            if (feeder == null) {
                throw new IllegalStateException("not started: give this tier to HourglassBuilder.coldTier first");
            }
            return feeder;
        }
    }

    /** @throws IllegalArgumentException naming {@code job} when one of the fields the tier stores is not set */
    @Override
    public ScheduleResult store(JobRequest job) {
        checkResolved(job);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            boolean replace = job.onConflict() == OnConflict.REPLACE;
            if (table.insert(c, job, replace)) {
                return result(job.topic(), job.id(), job.runAt(), ScheduleResult.Outcome.CREATED);
            }
            if (replace) {
                return result(job.topic(), job.id(), job.runAt(), ScheduleResult.Outcome.REPLACED);
            }
            Optional<JobRequest> stored = table.find(c, job.topic(), job.id(), false);
            // Deleted between the two statements (moved or cancelled): the id is free of this tier, so try again.
            if (stored.isEmpty()) {
                return store(job);
            }
            ScheduleResult existing = result(job.topic(), job.id(), stored.get().runAt(), ScheduleResult.Outcome.KEPT);
            if (job.onConflict() == OnConflict.REJECT) {
                throw new JobAlreadyExistsException(existing);
            }
            return existing;
        } catch (SQLException e) {
            throw unavailable("storing a job", e);
        }
    }

    private static void checkResolved(JobRequest job) {
        if (job.id() == null
                || job.runAt() == null
                || job.maxAttempts() == null
                || job.lease() == null
                || job.backoff() == null
                || job.idempotencyWindow() == null) {
            throw new IllegalArgumentException("job: id, runAt, maxAttempts, lease, backoff and idempotencyWindow must"
                    + " be set (the core resolves them before storing a job)");
        }
    }

    /**
     * Stores the jobs as {@link #store} would one after another, with fewer statements: the jobs that do not replace,
     * and whose topic and id no other job of the list shares, go in one transaction of multi-row {@code INSERT … ON
     * CONFLICT DO NOTHING} statements (1,000 rows each), so that a batch costs one commit. Then, in list order, the
     * jobs whose id was stored already take {@link #store}'s path, which keeps or rejects them as they ask, and so do
     * replacing jobs and repeated ids. When PostgreSQL fails, the jobs not stored yet fail with
     * {@link ColdTierUnavailableException}.
     *
     * @throws NullPointerException when {@code jobs} or one of its elements is null; then nothing was stored
     */
    @Override
    public List<CompletableFuture<ScheduleResult>> storeAll(List<JobRequest> jobs) {
        List<JobRequest> all = List.copyOf(jobs);
        Map<String, Integer> occurrences = new HashMap<>();
        for (JobRequest job : all) {
            occurrences.merge(ColdJobTable.key(job.topic(), job.id()), 1, Integer::sum);
        }
        List<CompletableFuture<ScheduleResult>> outcomes = new ArrayList<>(Collections.nCopies(all.size(), null));
        List<JobRequest> bulk = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            JobRequest job = all.get(i);
            try {
                checkResolved(job);
            } catch (IllegalArgumentException e) {
                outcomes.set(i, CompletableFuture.failedFuture(e));
                continue;
            }
            if (job.onConflict() != OnConflict.REPLACE
                    && occurrences.get(ColdJobTable.key(job.topic(), job.id())) == 1) {
                bulk.add(job);
            }
        }
        Set<String> inserted = Set.of();
        ColdTierUnavailableException failure = null;
        if (!bulk.isEmpty()) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    inserted = table.insertAll(c, bulk);
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c);
                    throw e;
                }
            } catch (SQLException e) {
                failure = unavailable("storing jobs", e);
            }
        }
        for (int i = 0; i < all.size(); i++) {
            JobRequest job = all.get(i);
            if (outcomes.get(i) != null) {
                continue;
            }
            if (failure != null) {
                outcomes.set(i, CompletableFuture.failedFuture(failure));
            } else if (inserted.contains(ColdJobTable.key(job.topic(), job.id()))) {
                outcomes.set(
                        i,
                        CompletableFuture.completedFuture(
                                result(job.topic(), job.id(), job.runAt(), ScheduleResult.Outcome.CREATED)));
            } else {
                try {
                    outcomes.set(i, CompletableFuture.completedFuture(store(job)));
                } catch (ColdTierUnavailableException e) {
                    failure = e;
                    outcomes.set(i, CompletableFuture.failedFuture(e));
                } catch (RuntimeException e) {
                    outcomes.set(i, CompletableFuture.failedFuture(e));
                }
            }
        }
        return outcomes;
    }

    private static ScheduleResult result(String topic, String id, Instant due, ScheduleResult.Outcome outcome) {
        return new ScheduleResult(id, topic, JobState.SCHEDULED, due, outcome);
    }

    @Override
    public Optional<JobRequest> find(String topic, String id) {
        try (Connection c = dataSource.getConnection()) {
            return table.find(c, topic, id, false);
        } catch (SQLException e) {
            throw unavailable("reading a job", e);
        }
    }

    @Override
    public boolean delete(String topic, String id) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return table.delete(c, topic, id);
        } catch (SQLException e) {
            throw unavailable("deleting a job", e);
        }
    }

    @Override
    public boolean reschedule(String topic, String id, Instant dueAt) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return table.reschedule(c, topic, id, dueAt);
        } catch (SQLException e) {
            throw unavailable("rescheduling a job", e);
        }
    }

    @Override
    public <T> Optional<T> moveOut(String topic, String id, Function<JobRequest, T> into) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<JobRequest> job = table.find(c, topic, id, true);
                if (job.isEmpty()) {
                    c.rollback();
                    return Optional.empty();
                }
                T moved = into.apply(job.get());
                table.delete(c, topic, id);
                c.commit();
                return Optional.ofNullable(moved);
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
        } catch (SQLException e) {
            throw unavailable("moving a job into Redis", e);
        }
    }

    static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The connection is broken; closing it ends the transaction all the same.
        }
    }

    static ColdTierUnavailableException unavailable(String what, SQLException e) {
        return new ColdTierUnavailableException("cold tier (PostgreSQL): " + what + " failed: " + e.getMessage(), e);
    }

    /** Stops the feeder, then closes the connection pool this tier made (a given data source stays open). */
    @Override
    public void close() {
        stop();
        if (ownPool != null) {
            ownPool.close();
        }
    }

    /** Builds a {@link JdbcColdTier}. Not thread-safe. */
    public static final class Builder {
        private String namespace;
        private DataSource dataSource;
        private String jdbcUrl;
        private String jdbcUser;
        private String jdbcPassword;
        private int batchSize = 500;
        private Duration pollInterval = Duration.ofSeconds(1);
        private Duration leadTime = Duration.ofMinutes(1);
        private boolean feederThread = true;
        private boolean migrate = true;

        private Builder() {}

        /**
         * @param namespace the Hourglass namespace whose jobs this tier holds, as its instance uses; not null
         * @return this builder
         */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /**
         * @param dataSource the PostgreSQL to keep jobs in, pooled by the caller (who also closes it); not null
         * @return this builder
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            this.jdbcUrl = null;
            return this;
        }

        /**
         * @param url a PostgreSQL JDBC URL; the tier pools connections to it (HikariCP, at most 8, 5 s to get one) and
         *     closes the pool with itself; not null
         * @param user the database user, or null to take it from the URL
         * @param password the password, or null; never logged
         * @return this builder
         */
        public Builder jdbc(String url, String user, String password) {
            this.jdbcUrl = Objects.requireNonNull(url, "jdbcUrl");
            this.jdbcUser = user;
            this.jdbcPassword = password;
            this.dataSource = null;
            return this;
        }

        /**
         * @param batchSize jobs the feeder moves per transaction, 1 to 10,000; 500 by default
         * @return this builder
         */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1 || batchSize > 10_000) {
                throw new IllegalArgumentException("batchSize: must be between 1 and 10000, got " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * @param interval the feeder's wait after a pass that found less than a full batch, 10 ms to 1 min; 1 s by
         *     default. With the lead time it bounds how late a move can be: keep it well below the lead time
         * @return this builder
         */
        public Builder pollInterval(Duration interval) {
            if (interval == null || interval.toMillis() < 10 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("pollInterval: must be between 10 ms and 1 min, got " + interval);
            }
            this.pollInterval = interval;
            return this;
        }

        /**
         * @param leadTime how long before a job comes within the horizon the feeder moves it, 0 to 1 day; 1 min by
         *     default. It absorbs the feeder's polling, short outages and clock differences between the processes
         * @return this builder
         */
        public Builder leadTime(Duration leadTime) {
            if (leadTime == null || leadTime.isNegative() || leadTime.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("leadTime: must be between 0 and 1 day, got " + leadTime);
            }
            this.leadTime = leadTime;
            return this;
        }

        /**
         * @param enabled whether the instance's start runs the feeder on a daemon thread (true by default); false for
         *     processes that only schedule, or tests that call {@link JdbcColdTier#feedOnce()}
         * @return this builder
         */
        public Builder feeder(boolean enabled) {
            this.feederThread = enabled;
            return this;
        }

        /**
         * @param migrate whether {@link #build()} creates or upgrades the table ({@link JdbcColdTier#migrate()}); true
         *     by default
         * @return this builder
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * @return the tier, its table migrated unless told not to
         * @throws IllegalStateException naming what is missing
         * @throws org.flywaydb.core.api.FlywayException when the migration fails
         */
        public JdbcColdTier build() {
            if (namespace == null) {
                throw new IllegalStateException("namespace: required");
            }
            if (dataSource == null && jdbcUrl == null) {
                throw new IllegalStateException("dataSource: give a data source or a JDBC URL");
            }
            HikariDataSource pool = null;
            DataSource source = dataSource;
            if (source == null) {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(jdbcUrl);
                config.setUsername(jdbcUser);
                config.setPassword(jdbcPassword);
                config.setMaximumPoolSize(8);
                config.setConnectionTimeout(5_000);
                // A pool that starts while PostgreSQL is down still starts; calls fail until it is back.
                config.setInitializationFailTimeout(-1);
                config.setPoolName("hourglass-cold-tier");
                pool = new HikariDataSource(config);
                source = pool;
            }
            JdbcColdTier tier = new JdbcColdTier(this, source, pool);
            try {
                if (migrate) {
                    tier.migrate();
                }
            } catch (RuntimeException e) {
                tier.close();
                throw e;
            }
            return tier;
        }
    }
}
