package io.hourglass.tier.jdbc;

import io.hourglass.ColdTier;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.RedisUnavailableException;
import io.hourglass.ScheduleResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves jobs from the cold tier into Redis before they come within the horizon. A pass takes, in one transaction, the
 * earliest due rows up to now + horizon + lead time with {@code FOR UPDATE SKIP LOCKED} (so feeders of several
 * processes take disjoint batches, and none is a leader), schedules each into Redis with reject-on-conflict keeping its
 * id and due time, deletes the rows Redis accepted, or refused because it has the id already, and commits. A conflict
 * can only mean the job is in Redis or ran there: the core takes a job out of Redis without reserving its id before it
 * is stored here. A row whose job is still live in Redis is deleted only once it is older than a grace time
 * ({@link #moveGraceMs}): a younger one may be a job on its way from Redis into this tier. A crash before the commit
 * leaves the rows, and the next pass finds their jobs in Redis (deleting the rows) or moves them: nothing is lost,
 * nothing runs twice. A row Redis refuses for another reason is set aside ({@code last_error}), so that it cannot hold
 * up the rows behind it. Thread-safe.
 */
final class Feeder {
    private static final Logger LOG = LoggerFactory.getLogger(Feeder.class);
    private static final long RETRY_MS = 1000;

    private final DataSource dataSource;
    private final ColdJobTable table;
    private final Duration horizon;
    private final Duration reach;
    private final ColdTier.Mover mover;
    private final int batchSize;
    private final AtomicLong moved = new AtomicLong();
    private final AtomicLong lagMs = new AtomicLong();
    private final Object wake = new Object();
    private volatile boolean stopped;
    private Thread thread;
    /** A test's stand-in for a process that dies after Redis accepted the batch and before the commit. */
    volatile Runnable beforeCommit = () -> {};
    /**
     * How long a row stays when Redis holds a live job of its id: a reschedule or a replacing schedule into the cold
     * tier writes the row first and takes the job out of Redis after, and dropping the row in between would lose the
     * job. Older rows are what a crash between two writes left behind, and go. Tests shorten it.
     */
    volatile long moveGraceMs = 30_000;

    Feeder(
            DataSource dataSource,
            ColdJobTable table,
            Duration horizon,
            Duration leadTime,
            ColdTier.Mover mover,
            int batchSize) {
        this.dataSource = dataSource;
        this.table = table;
        this.horizon = horizon;
        this.reach = horizon.plus(leadTime);
        this.mover = mover;
        this.batchSize = batchSize;
    }

    /** What one pass did: rows it took, and how many of them left the cold tier. */
    record Pass(int taken, int moved) {}

    synchronized Pass feedOnce() {
        Instant now = Instant.now();
        Pass pass;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            List<JobRequest> batch;
            List<JobRequest> gone = new ArrayList<>();
            List<JobRequest> inRedis = new ArrayList<>();
            Map<JobRequest, String> refused = new LinkedHashMap<>();
            RedisUnavailableException redisDown = null;
            int dropped;
            try {
                batch = table.claimDue(c, now.plus(reach), batchSize);
                List<CompletableFuture<ScheduleResult>> sent = new ArrayList<>(batch.size());
                for (JobRequest job : batch) {
                    sent.add(send(job));
                }
                for (int i = 0; i < batch.size(); i++) {
                    Throwable failure = outcome(sent.get(i));
                    if (failure == null
                            || failure instanceof JobAlreadyExistsException conflict
                                    && conflict.existing().ended() != null) {
                        gone.add(batch.get(i));
                    } else if (failure instanceof JobAlreadyExistsException) {
                        inRedis.add(batch.get(i));
                    } else if (failure instanceof RedisUnavailableException down) {
                        redisDown = down;
                    } else {
                        LOG.warn(
                                "cold tier: job {} of topic {} stays in PostgreSQL, set aside with its error (a"
                                        + " reschedule retries it): Redis refused it: {}",
                                batch.get(i).id(),
                                batch.get(i).topic(),
                                failure.toString());
                        refused.put(batch.get(i), failure.toString());
                    }
                }
                table.delete(c, gone);
                dropped = table.deleteStoredBefore(c, inRedis, moveGraceMs);
                table.refused(c, refused);
                beforeCommit.run();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                JdbcColdTier.rollbackQuietly(c);
                throw e;
            }
            moved.addAndGet(gone.size() + dropped);
            pass = new Pass(batch.size(), gone.size() + dropped);
            Instant earliest = table.earliestDue(c);
            lagMs.set(
                    earliest == null
                            ? 0
                            : Math.max(
                                    0,
                                    Duration.between(earliest, now.plus(horizon))
                                            .toMillis()));
            if (redisDown != null) {
                // The jobs Redis accepted before are deleted; the rest wait for the next pass.
                throw redisDown;
            }
        } catch (SQLException e) {
            throw JdbcColdTier.unavailable("feeding jobs into Redis", e);
        }
        return pass;
    }

    private CompletableFuture<ScheduleResult> send(JobRequest job) {
        try {
            return mover.schedule(job);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return null when the schedule succeeded, else why it failed */
    private static Throwable outcome(CompletableFuture<ScheduleResult> sent) {
        try {
            sent.get();
            return null;
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e;
            while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                    && cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RedisUnavailableException("interrupted while moving jobs into Redis", e);
        }
    }

    Duration lag() {
        return Duration.ofMillis(lagMs.get());
    }

    long moved() {
        return moved.get();
    }

    void start(Duration pollInterval) {
        thread = new Thread(() -> run(pollInterval.toMillis()), "hourglass-cold-tier-feeder");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(long pollMs) {
        boolean failing = false;
        while (!stopped) {
            long waitMs;
            try {
                Pass pass = feedOnce();
                if (failing) {
                    LOG.info("cold tier feeder: moving jobs into Redis again");
                    failing = false;
                }
                // A full batch that moved something: more may be due, so go on at once.
                waitMs = pass.taken() == batchSize && pass.moved() > 0 ? 0 : pollMs;
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warn("cold tier feeder: {}; retrying every second, jobs wait in PostgreSQL", e.toString());
                    failing = true;
                }
                waitMs = RETRY_MS;
            }
            if (waitMs > 0) {
                synchronized (wake) {
                    if (stopped) {
                        return;
                    }
                    try {
                        wake.wait(waitMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    void stop() {
        synchronized (wake) {
            stopped = true;
            wake.notifyAll();
        }
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
