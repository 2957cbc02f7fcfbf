package io.hourglass.internal;

import io.hourglass.StaleReceiptException;
import io.hourglass.WorkerOptions;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of running handlers ({@link WorkerOptions#autoExtendLease()}, always for callbacks): extends a job's
 * lease to a full lease from now whenever half of it is left (Redis's clock), until the delivery ends or Redis refuses
 * the receipt; after a failure of Redis, tries again a quarter lease later; skips a turn when the handler extended
 * further itself. Thread-safe.
 */
final class LeaseKeeper {
    /** The runner's logger: what happens to a delivery is logged under one name. */
    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /**
     * Least pause (ms) between automatic extensions of one lease, so that a lease shorter than a round trip cannot make
     * a loop of extensions.
     */
    private static final long MIN_EXTENSION_PAUSE_MS = 10;

    private final Leases leases;
    private final ScheduledExecutorService timer;
    private final ServerClock clock;

    LeaseKeeper(Leases leases, ScheduledExecutorService timer, ServerClock clock) {
        this.leases = leases;
        this.timer = timer;
        this.clock = clock;
    }

    /** Schedules the job's first extension; whoever finishes the delivery cancels the next one. */
    void start(JobContext job) {
        scheduleExtension(job, extensionPause(job));
    }

    /** How long until the lease should be extended: when half the job's lease is left (Redis's clock). */
    private long extensionPause(JobContext job) {
        long leaseMs = job.record().leaseMs();
        long remaining = job.leaseUntil().toEpochMilli() - clock.nowMs();
        return Math.max(MIN_EXTENSION_PAUSE_MS, remaining - leaseMs / 2);
    }

    private void scheduleExtension(JobContext job, long pauseMs) {
        if (job.isFinished()) {
            return;
        }
        try {
            job.keepLease(timer.schedule(() -> extendLease(job), pauseMs, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            // The instance is closing; its handlers' jobs are handed back.
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
        if (job.leaseUntil().toEpochMilli() - clock.nowMs() > leaseMs / 2 + MIN_EXTENSION_PAUSE_MS) {
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
}
