package io.hourglass.internal;

import io.hourglass.HandlerThreads;
import io.hourglass.StaleReceiptException;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of running handlers ({@link WorkerOptions#autoExtendLease()}, always for callbacks). Thread-safe.
 *
 * <ul>
 *   <li><b>A run with a known bound</b> (a callback's request timeout, {@link BoundedHandler}) starts only once its
 *       lease covers that bound plus {@link #COVER_MARGIN_MS}: when less is left, one receipt-fenced extension on the
 *       handler thread comes first, and when Redis refuses it or cannot be reached the run does not start. Nothing the
 *       process does while the request is in flight, then, can let the lease lapse before the receiver answered, not
 *       even a stall of several seconds (a JVM just started or resumed, a starved machine). Otherwise a receiver slower
 *       than the lease got a second, overlapping request whenever the extension below ran a second late.
 *   <li><b>Every run</b> is extended to a full lease from now whenever two thirds of its lease are left (Redis's
 *       clock), until the delivery ends or Redis refuses the receipt; after a failure of Redis it tries again a quarter
 *       lease later; it skips a turn when the handler extended further itself. The extensions run on a thread of this
 *       keeper's own, so that no other work of the instance (sweeps, timeouts, listeners) can delay them; an extension
 *       that came due while the process was stopped runs as soon as it resumes.
 * </ul>
 */
final class LeaseKeeper implements AutoCloseable {
    /** The runner's logger: what happens to a delivery is logged under one name. */
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /**
     * Least pause (ms) between automatic extensions of one lease, so that a lease shorter than a round trip cannot make
     * a loop of extensions.
     */
    private static final long MIN_EXTENSION_PAUSE_MS = 10;
    /**
     * What a bounded run's lease covers beyond its bound (ms): the error of this process's estimate of Redis's clock,
     * the ack's way to Redis, and a request deadline that fires late.
     */
    static final long COVER_MARGIN_MS = 2000;

    private final Leases leases;
    private final ScheduledThreadPoolExecutor timer;
    private final ServerClock clock;

    LeaseKeeper(Leases leases, ServerClock clock, String threadName) {
        this.leases = leases;
        this.clock = clock;
        this.timer = new ScheduledThreadPoolExecutor(1, HandlerThreads.factory(threadName, false));
        this.timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Makes the job's lease cover a run of up to {@code boundMs} (0: unknown), then schedules its first extension;
     * whoever finishes the delivery cancels the next one. Blocks for one round trip when the lease must be extended
     * first.
     *
     * @return false when the lease could not be made to cover the run: the caller must not start it
     */
    boolean start(JobContext job, long boundMs) {
        if (boundMs > 0 && !cover(job, boundMs + COVER_MARGIN_MS)) {
            return false;
        }
        scheduleExtension(job, extensionPause(job));
        return true;
    }

    private boolean cover(JobContext job, long neededMs) {
        if (job.leaseUntil().toEpochMilli() - clock.nowMs() >= neededMs) {
            return true;
        }
        try {
            Instant until = leases.extend(
                    job.topic(),
                    job.id(),
                    job.receipt(),
                    Duration.ofMillis(Math.max(neededMs, job.record().leaseMs())));
            job.leaseExtendedTo(until);
            return true;
        } catch (StaleReceiptException e) {
            log.info(
                    "lease of job {} in topic {} was lost before its delivery started (expired, cancelled,"
                            + " rescheduled or replaced); not delivered here",
                    job.id(),
                    job.topic());
        } catch (RuntimeException e) {
            log.warn(
                    "extending the lease of job {} in topic {} before its delivery failed; not delivered now, and"
                            + " redelivered when its lease expires: {}",
                    job.id(),
                    job.topic(),
                    RedisGateway.unwrap(e).toString());
        }
        return false;
    }

    /** How long until the lease should be extended: when two thirds of the job's lease are left (Redis's clock). */
    private long extensionPause(JobContext job) {
        long remaining = job.leaseUntil().toEpochMilli() - clock.nowMs();
        return Math.max(MIN_EXTENSION_PAUSE_MS, remaining - extendWhenLeft(job));
    }

    private static long extendWhenLeft(JobContext job) {
        return job.record().leaseMs() * 2 / 3;
    }

    private void scheduleExtension(JobContext job, long pauseMs) {
        if (job.isFinished()) {
            return;
        }
        try {
            job.keepLease(timer.schedule(() -> extendLease(job), pauseMs, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            // The worker is closing; its handlers' jobs are handed back.
        }
    }

    /**
     * Extends the lease to a full lease from now, unless the delivery ended or the handler extended it itself far
     * enough; stops for good when Redis refuses the receipt.
     */
    private void extendLease(JobContext job) {
        if (job.isFinished()) {
            return;
        }
        long leaseMs = job.record().leaseMs();
        if (job.leaseUntil().toEpochMilli() - clock.nowMs() > extendWhenLeft(job) + MIN_EXTENSION_PAUSE_MS) {
            scheduleExtension(job, extensionPause(job));
            return;
        }
        leases.extendAsync(job.topic(), job.id(), job.receipt(), leaseMs).whenComplete((until, e) -> {
            if (e == null) {
                job.leaseExtendedTo(until);
                scheduleExtension(job, extensionPause(job));
                return;
            }
            Throwable cause = RedisGateway.unwrap(e);
            if (cause instanceof StaleReceiptException) {
                if (!job.isFinished()) {
                    log.info(
                            "lease of job {} in topic {} was lost (expired, cancelled, rescheduled or replaced);"
                                    + " it is no longer extended",
                            job.id(),
                            job.topic());
                }
                return;
            }
            long retryMs = Math.max(MIN_EXTENSION_PAUSE_MS, leaseMs / 4);
            log.warn(
                    "extending the lease of job {} in topic {} failed; trying again in {} ms: {}",
                    job.id(),
                    job.topic(),
                    retryMs,
                    cause.toString());
            scheduleExtension(job, retryMs);
        });
    }

    /** Stops the keeper's thread; the worker's deliveries have ended. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
