package io.hourglass.tier.jdbc;

import io.hourglass.Backoff;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.OnExpiry;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The SQL of the cold tier's one table, on connections the caller holds; rows become job requests and back. */
final class ColdJobTable {
    static final String TABLE = "hourglass_cold_jobs";

    private static final String COLUMNS = "topic, id, due_at, payload, max_attempts, lease_ms, backoff, callback_url,"
            + " failure_callback_url, idempotency_window_ms, expires_at, ttl_ms, on_expiry, priority,"
            + " dispatch_deadline_ms";
    private static final String INSERT = "INSERT INTO " + TABLE + " (namespace, " + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String REPLACE = " ON CONFLICT (namespace, topic, id) DO UPDATE SET due_at = EXCLUDED.due_at,"
            + " payload = EXCLUDED.payload, max_attempts = EXCLUDED.max_attempts, lease_ms = EXCLUDED.lease_ms,"
            + " backoff = EXCLUDED.backoff, callback_url = EXCLUDED.callback_url,"
            + " failure_callback_url = EXCLUDED.failure_callback_url,"
            + " idempotency_window_ms = EXCLUDED.idempotency_window_ms, expires_at = EXCLUDED.expires_at,"
            + " ttl_ms = EXCLUDED.ttl_ms, on_expiry = EXCLUDED.on_expiry,"
            + " priority = EXCLUDED.priority, dispatch_deadline_ms = EXCLUDED.dispatch_deadline_ms, stored_at = now(), last_error = NULL"
            // xmax is 0 in a row version that an insert made, not an update.
            + " RETURNING (xmax = 0) AS inserted";
    /** Rows per multi-row insert: 16,000 parameters, well below PostgreSQL's 65,535 per statement. */
    static final int MAX_ROWS_PER_INSERT = 1000;

    private static final String BY_ID = " WHERE namespace = ? AND topic = ? AND id = ?";

    private final String namespace;

    ColdJobTable(String namespace) {
        this.namespace = namespace;
    }

    /** Inserts a job; with {@code replace}, overwrites the stored one. @return whether a new row was made */
    boolean insert(Connection c, JobRequest job, boolean replace) throws SQLException {
        String sql = replace ? INSERT + REPLACE : INSERT + " ON CONFLICT DO NOTHING";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            bind(s, 1, job);
            if (!replace) {
                return s.executeUpdate() == 1;
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getBoolean("inserted");
            }
        }
    }

    /**
     * Inserts jobs with one multi-row statement per {@link #MAX_ROWS_PER_INSERT}, leaving those whose id is stored
     * already as they are; the caller commits.
     *
     * @param jobs jobs of distinct topic and id
     * @return the keys ({@link #key}) of the jobs that made a new row
     */
    Set<String> insertAll(Connection c, List<JobRequest> jobs) throws SQLException {
        Set<String> inserted = new HashSet<>();
        for (int from = 0; from < jobs.size(); from += MAX_ROWS_PER_INSERT) {
            List<JobRequest> chunk = jobs.subList(from, Math.min(jobs.size(), from + MAX_ROWS_PER_INSERT));
            StringBuilder sql = new StringBuilder(INSERT);
            for (int row = 1; row < chunk.size(); row++) {
                sql.append(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            }
            sql.append(" ON CONFLICT DO NOTHING RETURNING topic, id");
            try (PreparedStatement s = c.prepareStatement(sql.toString())) {
                int i = 1;
                for (JobRequest job : chunk) {
                    i = bind(s, i, job);
                }
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        inserted.add(key(r.getString(1), r.getString(2)));
                    }
                }
            }
        }
        return inserted;
    }

    /** @return what identifies a job within the namespace, as {@link #insertAll} reports it */
    static String key(String topic, String id) {
        return topic + '\n' + id;
    }

    /** Binds a job's 16 columns from parameter {@code i} on. @return the next parameter's index */
    private int bind(PreparedStatement s, int first, JobRequest job) throws SQLException {
        int i = first;
        s.setString(i++, namespace);
        s.setString(i++, job.topic());
        s.setString(i++, job.id());
        s.setObject(i++, utc(job.runAt()));
        s.setBytes(i++, job.payload());
        s.setInt(i++, job.maxAttempts());
        s.setLong(i++, job.lease().toMillis());
        s.setString(i++, job.backoff().spec());
        s.setString(i++, job.callbackUrl() == null ? null : job.callbackUrl().toString());
        s.setString(
                i++,
                job.failureCallbackUrl() == null
                        ? null
                        : job.failureCallbackUrl().toString());
        s.setLong(i++, job.idempotencyWindow().toMillis());
        s.setObject(i++, job.expiresAt() == null ? null : utc(job.expiresAt()), Types.TIMESTAMP_WITH_TIMEZONE);
        if (job.ttl() == null) {
            s.setNull(i++, Types.BIGINT);
        } else {
            s.setLong(i++, job.ttl().toMillis());
        }
        s.setString(i++, job.onExpiry().name());
        s.setInt(i++, job.priority());
        if (job.dispatchDeadline() == null) {
            s.setNull(i++, Types.BIGINT);
        } else {
            s.setLong(i++, job.dispatchDeadline().toMillis());
        }
        return i;
    }

    /** @param lock whether to lock the row until the transaction ends ({@code FOR UPDATE}) */
    Optional<JobRequest> find(Connection c, String topic, String id, boolean lock) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT " + COLUMNS + " FROM " + TABLE + BY_ID + (lock ? " FOR UPDATE" : ""))) {
            s.setString(1, namespace);
            s.setString(2, topic);
            s.setString(3, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(job(r)) : Optional.empty();
            }
        }
    }

    boolean delete(Connection c, String topic, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + TABLE + BY_ID)) {
            s.setString(1, namespace);
            s.setString(2, topic);
            s.setString(3, id);
            return s.executeUpdate() == 1;
        }
    }

    void delete(Connection c, List<JobRequest> jobs) throws SQLException {
        if (jobs.isEmpty()) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + TABLE + BY_ID)) {
            for (JobRequest job : jobs) {
                s.setString(1, namespace);
                s.setString(2, job.topic());
                s.setString(3, job.id());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /**
     * Deletes those of the jobs stored (or rescheduled) more than {@code graceMs} ago: a younger row may be the new
     * version of a job that is still on its way out of Redis.
     *
     * @return how many rows it deleted
     */
    int deleteStoredBefore(Connection c, List<JobRequest> jobs, long graceMs) throws SQLException {
        if (jobs.isEmpty()) {
            return 0;
        }
        try (PreparedStatement s = c.prepareStatement(
                "DELETE FROM " + TABLE + BY_ID + " AND stored_at < now() - make_interval(secs => ?)")) {
            for (JobRequest job : jobs) {
                s.setString(1, namespace);
                s.setString(2, job.topic());
                s.setString(3, job.id());
                s.setDouble(4, graceMs / 1000.0);
                s.addBatch();
            }
            int deleted = 0;
            for (int count : s.executeBatch()) {
                deleted += Math.max(0, count);
            }
            return deleted;
        }
    }

    boolean reschedule(Connection c, String topic, String id, Instant dueAt) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE " + TABLE + " SET due_at = ?, last_error = NULL, stored_at = now()" + BY_ID)) {
            s.setObject(1, utc(dueAt));
            s.setString(2, namespace);
            s.setString(3, topic);
            s.setString(4, id);
            return s.executeUpdate() == 1;
        }
    }

    /**
     * Locks and reads the earliest due jobs up to {@code cutoff}, skipping those another transaction holds: several
     * feeders take disjoint batches, and none waits for another.
     */
    List<JobRequest> claimDue(Connection c, Instant cutoff, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM " + TABLE
                + " WHERE namespace = ? AND due_at <= ? AND last_error IS NULL ORDER BY due_at LIMIT ?"
                + " FOR UPDATE SKIP LOCKED")) {
            s.setString(1, namespace);
            s.setObject(2, utc(cutoff));
            s.setInt(3, limit);
            List<JobRequest> jobs = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    jobs.add(job(r));
                }
            }
            return jobs;
        }
    }

    /** Sets jobs aside with why Redis refused them, so that they no longer hold up the feeder's batches. */
    void refused(Connection c, Map<JobRequest, String> errors) throws SQLException {
        if (errors.isEmpty()) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE " + TABLE + " SET last_error = ?" + BY_ID)) {
            for (Map.Entry<JobRequest, String> e : errors.entrySet()) {
                s.setString(1, e.getValue());
                s.setString(2, namespace);
                s.setString(3, e.getKey().topic());
                s.setString(4, e.getKey().id());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** @return the earliest due time of the namespace's stored jobs, or null when none is stored */
    Instant earliestDue(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT min(due_at) FROM " + TABLE + " WHERE namespace = ?")) {
            s.setString(1, namespace);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                OffsetDateTime earliest = r.getObject(1, OffsetDateTime.class);
                return earliest == null ? null : earliest.toInstant();
            }
        }
    }

    /**
     * Counts the namespace's jobs per topic among at most {@code limit} rows (the planner takes an index-only scan of
     * the primary key, or a sequential scan when the namespace holds most of the table; either stops at the limit), so
     * that the cost stays bounded on a table of any size.
     */
    Map<String, Long> countByTopic(Connection c, int limit) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT topic, count(*) FROM (SELECT topic FROM " + TABLE
                + " WHERE namespace = ? LIMIT ?) AS waiting GROUP BY topic")) {
            s.setString(1, namespace);
            s.setInt(2, limit);
            Map<String, Long> counts = new HashMap<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    counts.put(r.getString(1), r.getLong(2));
                }
            }
            return counts;
        }
    }

    /** @return the planner's estimate of the table's rows (every namespace), or -1 when never analysed */
    long estimatedRows(Connection c) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)")) {
            s.setString(1, TABLE);
            try (ResultSet r = s.executeQuery()) {
                // PostgreSQL 14 and later say -1 for a table never analysed; older ones 0.
                return r.next() ? Math.max(-1, r.getLong(1)) : -1;
            }
        }
    }

    /** A row as the job request that stored it, rejecting conflicts (how the feeder schedules it into Redis). */
    private static JobRequest job(ResultSet r) throws SQLException {
        JobRequest.Builder b = JobRequest.builder(r.getString("topic"))
                .id(r.getString("id"))
                .runAt(r.getObject("due_at", OffsetDateTime.class).toInstant())
                .payload(r.getBytes("payload"))
                .maxAttempts(r.getInt("max_attempts"))
                .lease(Duration.ofMillis(r.getLong("lease_ms")))
                .backoff(Backoff.parse(r.getString("backoff")))
                .callbackUrl(uri(r.getString("callback_url")))
                .failureCallbackUrl(uri(r.getString("failure_callback_url")))
                .idempotencyWindow(Duration.ofMillis(r.getLong("idempotency_window_ms")))
                .onExpiry(OnExpiry.valueOf(r.getString("on_expiry")))
                .priority(r.getInt("priority"))
                .onConflict(OnConflict.REJECT);
        long dispatchDeadlineMs = r.getLong("dispatch_deadline_ms");
        if (!r.wasNull()) {
            b.dispatchDeadline(Duration.ofMillis(dispatchDeadlineMs));
        }
        OffsetDateTime expiresAt = r.getObject("expires_at", OffsetDateTime.class);
        long ttl = r.getLong("ttl_ms");
        if (!r.wasNull()) {
            b.ttl(Duration.ofMillis(ttl));
        } else if (expiresAt != null) {
            b.expiresAt(expiresAt.toInstant());
        }
        return b.build();
    }

    private static URI uri(String s) {
        return s == null ? null : URI.create(s);
    }

    static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
