package io.hourglass.history.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The job history in PostgreSQL: its schema (Flyway, in its own schema-history table, so it lives beside an
 * application's own migrations), idempotent writes of completion events, queries, and retention by age. Thread-safe:
 * every call takes its own connection from the data source.
 */
public final class HistoryStore {
    /** The table that holds the history. */
    public static final String TABLE = "hourglass_job_history";

    private static final String INSERT = "INSERT INTO " + TABLE
            + " (topic, shard, event_id, job_id, outcome, attempts, max_attempts, due_at, completed_at, last_error,"
            + " callback_url, payload, payload_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT ON CONSTRAINT hourglass_job_history_event DO NOTHING";
    private static final String COLUMNS =
            "seq, topic, shard, event_id, job_id, outcome, attempts, max_attempts, due_at,"
                    + " completed_at, last_error, callback_url, payload, payload_bytes";

    private final DataSource dataSource;

    /**
     * @param dataSource the PostgreSQL to keep the history in; not null. Call {@link #migrate()} before the first use.
     */
    public HistoryStore(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * Creates or upgrades the history's table and indexes (Flyway, schema history in {@code hourglass_history_schema});
     * safe to run from several processes at once.
     *
     * @throws org.flywaydb.core.api.FlywayException when the database refuses
     */
    public void migrate() {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:io/hourglass/history/jdbc/migration")
                .table("hourglass_history_schema")
                // The database may hold an application's tables already: that is not a reason to refuse.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }

    /**
     * Writes entries in one transaction; an entry whose event is already stored (same topic, shard and event id) is
     * left as it is, so writing a redelivered event again never makes a second row.
     *
     * @param entries the entries; not null
     * @return how many entries were new
     * @throws SQLException when the database refuses; then nothing was written
     */
    public int write(List<HistoryEntry> entries) throws SQLException {
        if (entries.isEmpty()) {
            return 0;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(INSERT)) {
                for (HistoryEntry e : entries) {
                    insert.setString(1, e.topic());
                    insert.setInt(2, e.shard());
                    insert.setString(3, e.eventId());
                    insert.setString(4, e.jobId());
                    insert.setString(5, e.outcome().name());
                    insert.setInt(6, e.attempts());
                    insert.setInt(7, e.maxAttempts());
                    insert.setObject(8, utc(e.dueAt()));
                    insert.setObject(9, utc(e.completedAt()));
                    insert.setString(10, e.lastError());
                    insert.setString(11, e.callbackUrl());
                    insert.setBytes(12, e.payload());
                    insert.setInt(13, e.payloadBytes());
                    insert.addBatch();
                }
                int inserted = 0;
                for (int n : insert.executeBatch()) {
                    inserted += Math.max(n, 0);
                }
                c.commit();
                return inserted;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Reads one page of the history: the entries that match every filter of {@code query}, newest completion first
     * (ties by the order they were stored, newest first), at most {@link HistoryQuery#limit()} of them. Pass the page's
     * {@link HistoryPage#nextCursor()} to {@link HistoryQuery.Builder#cursor} for the next page; paging with the same
     * filters yields each entry at most once (one archived meanwhile shows on a later page only when it completed
     * before the previous page's last entry). Reads only: a read-only database user suffices.
     *
     * @param query what to read; not null
     * @return one page of matching entries, newest completion first; its cursor is null on the last page
     * @throws SQLException when the database refuses or cannot be reached (the table missing: {@link #migrate()} never
     *     ran)
     */
    public HistoryPage query(HistoryQuery query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + TABLE + " WHERE true");
        List<Object> args = new ArrayList<>();
        if (query.topic() != null) {
            sql.append(" AND topic = ?");
            args.add(query.topic());
        }
        if (query.jobId() != null) {
            sql.append(" AND job_id = ?");
            args.add(query.jobId());
        }
        if (query.outcome() != null) {
            sql.append(" AND outcome = ?");
            args.add(query.outcome().name());
        }
        if (query.from() != null) {
            sql.append(" AND completed_at >= ?");
            args.add(utc(query.from()));
        }
        if (query.to() != null) {
            sql.append(" AND completed_at < ?");
            args.add(utc(query.to()));
        }
        if (query.cursor() != null) {
            HistoryQuery.Cursor cursor = HistoryQuery.Cursor.parse(query.cursor());
            sql.append(" AND (completed_at, seq) < (?, ?)");
            args.add(utc(Instant.EPOCH.plus(cursor.completedMicros(), ChronoUnit.MICROS)));
            args.add(cursor.seq());
        }
        // One row past the page says whether another page follows.
        sql.append(" ORDER BY completed_at DESC, seq DESC LIMIT ?");
        args.add(query.limit() + 1);
        try (Connection c = dataSource.getConnection();
                PreparedStatement select = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                select.setObject(i + 1, args.get(i));
            }
            List<HistoryEntry> entries = new ArrayList<>();
            String next = null;
            long lastSeq = 0;
            try (ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    if (entries.size() == query.limit()) {
                        HistoryEntry last = entries.get(entries.size() - 1);
                        next = new HistoryQuery.Cursor(
                                        ChronoUnit.MICROS.between(Instant.EPOCH, last.completedAt()), lastSeq)
                                .toString();
                        break;
                    }
                    lastSeq = r.getLong("seq");
                    entries.add(entry(r));
                }
            }
            return new HistoryPage(entries, next);
        }
    }

    /**
     * Deletes the entries completed before {@code cutoff}, at most {@code batchSize} rows a transaction, so no
     * transaction holds its locks for long.
     *
     * @param cutoff entries completed before it are deleted; not null
     * @param batchSize rows per transaction, at least 1
     * @return how many entries were deleted
     * @throws SQLException when the database refuses; the batches deleted before stay deleted
     */
    public long deleteCompletedBefore(Instant cutoff, int batchSize) throws SQLException {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize: must be at least 1, got " + batchSize);
        }
        String sql = "DELETE FROM " + TABLE + " WHERE seq IN (SELECT seq FROM " + TABLE
                + " WHERE completed_at < ? ORDER BY completed_at LIMIT ?)";
        long deleted = 0;
        try (Connection c = dataSource.getConnection();
                PreparedStatement delete = c.prepareStatement(sql)) {
            c.setAutoCommit(true);
            int n;
            do {
                delete.setObject(1, utc(cutoff));
                delete.setInt(2, batchSize);
                n = delete.executeUpdate();
                deleted += n;
            } while (n == batchSize);
        }
        return deleted;
    }

    private static HistoryEntry entry(ResultSet r) throws SQLException {
        return new HistoryEntry(
                r.getString("topic"),
                r.getInt("shard"),
                r.getString("event_id"),
                r.getString("job_id"),
                HistoryOutcome.valueOf(r.getString("outcome")),
                r.getInt("attempts"),
                r.getInt("max_attempts"),
                r.getObject("due_at", OffsetDateTime.class).toInstant(),
                r.getObject("completed_at", OffsetDateTime.class).toInstant(),
                r.getString("last_error"),
                r.getString("callback_url"),
                r.getBytes("payload"),
                r.getInt("payload_bytes"));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
