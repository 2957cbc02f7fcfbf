package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.ColdTier;
import io.hourglass.ColdTierUnavailableException;
import io.hourglass.HourglassSettings;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two tiers behind one producer API, when a {@link ColdTier} is configured: a job due beyond the horizon goes to the
 * cold tier, any other to Redis through the {@link Producer}; get, cancel and reschedule look in both; a reschedule
 * moves a job across. Made only with a cold tier, so an instance without one never passes here.
 *
 * <p>One rule keeps both tiers from running a job twice: a job is written to its new tier before it leaves the old one,
 * and it leaves Redis with no reservation of its id (its record is first replaced by one with an idempotency window of
 * 0, then cancelled), so that the feeder's reject-on-conflict schedule meets a conflict only where the job is in Redis
 * already, or ran there. A crash between the two steps leaves the job in both tiers, and the feeder then drops the cold
 * copy. Thread-safe.
 */
final class ColdTiering {
    private static final Logger LOG = LoggerFactory.getLogger(ColdTiering.class);

    private final ClientContext context;
    private final HourglassSettings settings;
    private final Scripts scripts;
    private final Producer producer;
    private final ColdTier tier;
    private final long horizonMs;
    private final AtomicBoolean coldTierDown = new AtomicBoolean();

    ColdTiering(ClientContext context, Scripts scripts, Producer producer) {
        this.context = context;
        this.settings = context.settings();
        this.scripts = scripts;
        this.producer = producer;
        this.tier = settings.coldTier();
        this.horizonMs = settings.coldTierHorizon().toMillis();
    }

    /** Lets the tier's feeder move jobs into Redis through the producer, without coming back here. */
    void start() {
        tier.start(settings.coldTierHorizon(), job -> producer.move(producer.prepare(job)));
    }

    void stop() {
        tier.stop();
    }

    private boolean beyondHorizon(long dueMs) {
        return dueMs - context.clock().nowMs() > horizonMs;
    }

    CompletableFuture<ScheduleResult> schedule(JobRequest request) {
        return producer.scheduleDrawingIds(producer.prepare(request), this::schedule);
    }

    private long dueMs(Producer.Prepared p) {
        return p.mode().equals("at") ? p.when() : context.clock().nowMs() + p.when();
    }

    private CompletableFuture<ScheduleResult> schedule(Producer.Prepared p) {
        long dueMs = dueMs(p);
        // A generated id is not looked up in the other tier: with a cold tier it has 128 random bits, as unlikely to
        // repeat as a random UUID (Producer.prepare).
        boolean callersId = p.request().id() != null;
        try {
            if (!beyondHorizon(dueMs)) {
                return callersId ? intoRedis(p) : producer.send(p);
            }
            return CompletableFuture.completedFuture(intoColdTier(p, dueMs, callersId));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The requests as {@link #schedule} takes them one by one, except that the jobs due beyond the horizon go to the
     * cold tier with one {@link ColdTier#storeAll} call, after the others were sent. A topic and id that come more than
     * once in the batch take the one-by-one path at each of their turns, so that the schedules of one job keep their
     * order; jobs of different ids do not depend on each other's order.
     */
    List<CompletableFuture<ScheduleResult>> scheduleAll(List<JobRequest> requests) {
        List<JobRequest> all = List.copyOf(requests);
        Map<String, Integer> callersIds = new HashMap<>();
        for (JobRequest r : all) {
            if (r.id() != null) {
                callersIds.merge(r.topic() + '\n' + r.id(), 1, Integer::sum);
            }
        }
        List<CompletableFuture<ScheduleResult>> outcomes = new ArrayList<>(all.size());
        List<JobRequest> cold = new ArrayList<>();
        List<Integer> coldAt = new ArrayList<>();
        for (JobRequest request : all) {
            try {
                Producer.Prepared p = producer.prepare(request);
                long dueMs = dueMs(p);
                boolean callersId = request.id() != null;
                if (!beyondHorizon(dueMs) || (callersId && callersIds.get(p.topic() + '\n' + p.id()) > 1)) {
                    outcomes.add(producer.scheduleDrawingIds(p, this::schedule));
                } else if (callersId && inRedis(p.topic(), p.id()) != null) {
                    // Redis holds the id: its conflict rules, one by one.
                    outcomes.add(CompletableFuture.completedFuture(intoColdTier(p, dueMs, true)));
                } else {
                    coldAt.add(outcomes.size());
                    outcomes.add(null);
                    cold.add(stored(p, dueMs));
                }
            } catch (RuntimeException e) {
                outcomes.add(CompletableFuture.failedFuture(e));
            }
        }
        if (cold.isEmpty()) {
            return outcomes;
        }
        List<CompletableFuture<ScheduleResult>> stored;
        try {
            stored = tier.storeAll(cold);
        } catch (RuntimeException e) {
            stored = Collections.nCopies(cold.size(), CompletableFuture.failedFuture(e));
        }
        for (int i = 0; i < cold.size(); i++) {
            CompletableFuture<ScheduleResult> outcome = stored.get(i);
            outcome.thenAccept(r -> {
                if (r.outcome() != ScheduleResult.Outcome.KEPT) {
                    Events.notify(() -> settings.events().scheduled(r));
                }
            });
            outcomes.set(coldAt.get(i), outcome);
        }
        return outcomes;
    }

    private CompletableFuture<ScheduleResult> intoRedis(Producer.Prepared p) {
        Optional<JobRequest> stored;
        try {
            stored = tier.find(p.topic(), p.id());
        } catch (ColdTierUnavailableException e) {
            // Jobs due soon keep being scheduled while the cold tier is down. Should it hold this id, the feeder finds
            // the job in Redis and drops the cold one: Redis's wins, and neither runs twice.
            if (coldTierDown.compareAndSet(false, true)) {
                LOG.warn(
                        "cold tier unreachable: jobs due within the horizon go to Redis unchecked against it: {}",
                        e.getMessage());
            }
            return producer.send(p);
        }
        coldTierDown.set(false);
        if (stored.isEmpty()) {
            return producer.send(p);
        }
        ScheduleResult existing = new ScheduleResult(
                p.id(), p.topic(), JobState.SCHEDULED, stored.get().runAt(), ScheduleResult.Outcome.KEPT);
        switch (p.request().onConflict()) {
            case REJECT:
                throw new JobAlreadyExistsException(existing);
            case KEEP:
                return CompletableFuture.completedFuture(existing);
            default:
                // Into Redis first: a crash before the delete leaves both, and the feeder drops the cold one. Waited
                // for here, not in a continuation: a JDBC call must not block a Redis I/O thread.
                ScheduleResult r = context.redis().await(producer.send(p), "schedule");
                tier.delete(p.topic(), p.id());
                return CompletableFuture.completedFuture(
                        new ScheduleResult(r.id(), r.topic(), r.state(), r.dueAt(), ScheduleResult.Outcome.REPLACED));
        }
    }

    private ScheduleResult intoColdTier(Producer.Prepared p, long dueMs, boolean callersId) {
        JobRequest job = stored(p, dueMs);
        boolean takeOutOfRedis = false;
        if (callersId) {
            ScheduleResult existing = inRedis(p.topic(), p.id());
            if (existing != null) {
                if (job.onConflict() == OnConflict.REJECT) {
                    throw new JobAlreadyExistsException(existing);
                }
                if (job.onConflict() == OnConflict.KEEP) {
                    return existing;
                }
                takeOutOfRedis = true;
            }
        }
        ScheduleResult result = tier.store(job);
        if (takeOutOfRedis) {
            leaveRedis(job);
            result = new ScheduleResult(
                    result.id(), result.topic(), result.state(), result.dueAt(), ScheduleResult.Outcome.REPLACED);
        }
        if (result.outcome() != ScheduleResult.Outcome.KEPT) {
            ScheduleResult scheduled = result;
            Events.notify(() -> settings.events().scheduled(scheduled));
        }
        return result;
    }

    /** The job as the cold tier keeps it: id, due instant and every default resolved, as this instance decided them. */
    private static JobRequest stored(Producer.Prepared p, long dueMs) {
        return job(
                p.request(),
                p.id(),
                Instant.ofEpochMilli(dueMs),
                p.maxAttempts(),
                Duration.ofMillis(p.leaseMs()),
                p.backoff(),
                Duration.ofMillis(p.windowMs()),
                Producer.onConflict(p.request()));
    }

    private static JobRequest copy(JobRequest job, Instant runAt, OnConflict onConflict, Duration window) {
        return job(job, job.id(), runAt, job.maxAttempts(), job.lease(), job.backoff(), window, onConflict);
    }

    private static JobRequest job(
            JobRequest source,
            String id,
            Instant runAt,
            int maxAttempts,
            Duration lease,
            Backoff backoff,
            Duration window,
            OnConflict onConflict) {
        JobRequest.Builder b = JobRequest.builder(source.topic())
                .id(id)
                .payload(source.payload())
                .runAt(runAt)
                .maxAttempts(maxAttempts)
                .lease(lease)
                .backoff(backoff)
                .callbackUrl(source.callbackUrl())
                .failureCallbackUrl(source.failureCallbackUrl())
                .idempotencyWindow(window)
                .onExpiry(source.onExpiry())
                .priority(source.priority())
                .dispatchDeadline(source.dispatchDeadline())
                .onConflict(onConflict);
        if (source.ttl() != null) {
            b.ttl(source.ttl());
        } else if (source.expiresAt() != null) {
            b.expiresAt(source.expiresAt());
        }
        return b.build();
    }

    /**
     * What Redis holds under the id, as a conflict: a job there ({@code KEPT} with its state and due time), or the
     * reservation of one that ended within its idempotency window; null when neither. {@code conflict.lua} decides it
     * as {@code schedule.lua} does, in one call.
     */
    private ScheduleResult inRedis(String topic, String id) {
        return context.redis().await(scripts.conflict(topic, id), "get");
    }

    /**
     * Takes a job out of Redis without reserving its id: its record is replaced by one with no idempotency window (and
     * the due time it has in the cold tier, so it cannot run meanwhile), which the cancel then leaves no reservation
     * for.
     */
    private void leaveRedis(JobRequest job) {
        JobRequest windowless = copy(job, job.runAt(), OnConflict.REPLACE, Duration.ZERO);
        context.redis().await(producer.move(producer.prepare(windowless)), "schedule");
        context.redis().await(scripts.cancel(job.topic(), job.id(), ""), "cancel");
    }

    Optional<JobInfo> get(String topic, String id) {
        Optional<JobInfo> hot = producer.get(topic, id);
        if (hot.isPresent()) {
            return hot;
        }
        Optional<JobRequest> cold = tier.find(topic, id);
        if (cold.isPresent()) {
            return Optional.of(info(cold.get()));
        }
        // Moved by the feeder between the two looks.
        return producer.get(topic, id);
    }

    private static JobInfo info(JobRequest job) {
        Instant expiresAt = job.ttl() != null ? job.runAt().plus(job.ttl()) : job.expiresAt();
        return new JobInfo(
                job.id(),
                job.topic(),
                JobState.SCHEDULED,
                job.runAt(),
                0,
                job.maxAttempts(),
                job.backoff(),
                job.lease(),
                job.callbackUrl(),
                job.payload(),
                null,
                null,
                expiresAt,
                job.onExpiry(),
                job.failureCallbackUrl(),
                null,
                null,
                job.priority());
    }

    boolean cancel(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        // The cold tier first: a move in progress ends before the row is locked, and then the job is in Redis.
        boolean cold;
        try {
            cold = tier.moveOut(topic, id, this::reserveCancelled).isPresent();
        } catch (ColdTierUnavailableException e) {
            // A job found in Redis is in no other tier; only a miss needs the cold tier's answer.
            if (producer.cancel(topic, id)) {
                return true;
            }
            throw e;
        }
        boolean hot = producer.cancel(topic, id);
        return cold || hot;
    }

    /**
     * Reserves the id of a job cancelled in the cold tier for its idempotency window, as a cancel in Redis does: the
     * job goes into Redis not yet due (so it cannot run) and is cancelled there at once, which reserves its id. The
     * cold tier deletes its row once this returns, and keeps it when this throws (Redis down).
     *
     * @return true
     */
    private Boolean reserveCancelled(JobRequest job) {
        Duration window = job.idempotencyWindow();
        if (window == null || window.isZero()) {
            return true;
        }
        // Not due meanwhile, even where the feeder fell behind and left the job past its due time.
        Instant notDue = beyondHorizon(job.runAt().toEpochMilli())
                ? job.runAt()
                : Instant.ofEpochMilli(context.clock().nowMs() + horizonMs);
        try {
            context.redis()
                    .await(producer.move(producer.prepare(copy(job, notDue, OnConflict.REJECT, window))), "schedule");
        } catch (JobAlreadyExistsException e) {
            // Redis has the id already: a job there (the cancel that follows reserves it) or a reservation.
            return true;
        } catch (IllegalArgumentException e) {
            // Outside this instance's limits (another process stored it): cancelled all the same, without a
            // reservation.
            LOG.warn(
                    "cancelled job '{}' of topic '{}' leaves no reservation of its id: {}",
                    job.id(),
                    job.topic(),
                    e.getMessage());
            return true;
        }
        context.redis().await(scripts.cancel(job.topic(), job.id(), ""), "cancel");
        return true;
    }

    Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt) {
        Objects.requireNonNull(runAt, "runAt");
        context.checkDelay(Duration.ofMillis(Math.max(0, runAt.toEpochMilli() - System.currentTimeMillis())), "runAt");
        return reschedule(topic, id, runAt.toEpochMilli(), () -> producer.reschedule(topic, id, runAt));
    }

    Optional<ScheduleResult> reschedule(String topic, String id, Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay: must be zero or positive, got " + delay);
        }
        context.checkDelay(delay, "delay");
        long dueMs = context.clock().nowMs() + delay.toMillis();
        return reschedule(topic, id, dueMs, () -> producer.reschedule(topic, id, delay));
    }

    private Optional<ScheduleResult> reschedule(
            String topic, String id, long dueMs, Supplier<Optional<ScheduleResult>> inRedis) {
        Names.checkTopic(topic);
        Names.checkId(id);
        Instant due = Instant.ofEpochMilli(dueMs);
        if (beyondHorizon(dueMs)) {
            if (tier.reschedule(topic, id, due)) {
                // A move cut between Redis's accept and the delete's commit (a feeder's or PostgreSQL's crash) left the
                // job in Redis too, where it would run at its old due time: it leaves Redis, as a job moved out does.
                // One with the new due time is the updated row, moved since.
                producer.get(topic, id)
                        .filter(info -> !due.equals(info.dueAt()))
                        .map(info -> movable(info, due))
                        .ifPresent(this::leaveRedis);
                return Optional.of(rescheduled(topic, id, JobState.SCHEDULED, due));
            }
            Optional<JobInfo> hot = producer.get(topic, id);
            JobRequest job = hot.map(info -> movable(info, due)).orElse(null);
            if (job == null) {
                // Missing, dead, or a job the cold tier cannot hold: Redis answers as without a cold tier.
                return inRedis.get();
            }
            tier.store(job);
            leaveRedis(job);
            return Optional.of(rescheduled(topic, id, JobState.SCHEDULED, due));
        }
        Optional<ScheduleResult> hot = inRedis.get();
        if (hot.isPresent()) {
            return hot;
        }
        Optional<Optional<ScheduleResult>> moved = tier.moveOut(topic, id, job -> {
            try {
                ScheduleResult r = context.redis()
                        .await(
                                producer.move(
                                        producer.prepare(copy(job, due, OnConflict.REJECT, job.idempotencyWindow()))),
                                "schedule");
                return Optional.of(rescheduled(topic, id, r.state(), r.dueAt()));
            } catch (JobAlreadyExistsException e) {
                // Already in Redis (the feeder was faster): the cold copy goes, Redis's is rescheduled below.
                return Optional.empty();
            }
        });
        if (moved.isPresent() && moved.get().isPresent()) {
            return moved.get();
        }
        return inRedis.get();
    }

    private static ScheduleResult rescheduled(String topic, String id, JobState state, Instant due) {
        return new ScheduleResult(id, topic, state, due, ScheduleResult.Outcome.REPLACED);
    }

    /**
     * The Redis job as the cold tier would keep it at its new due time, or null where it stays in Redis: a dead letter
     * (refused by the reschedule as without a cold tier), a completed job, a failure notice (its id is not one a
     * producer may schedule), or a job that would expire before it is due. Its attempts start again from 0 and it takes
     * the topic's idempotency window: the record's are not part of what {@code get} reads.
     */
    private JobRequest movable(JobInfo info, Instant due) {
        if (info.state() == JobState.DEAD || info.state() == JobState.COMPLETED) {
            return null;
        }
        if (info.expiresAt() != null && !info.expiresAt().isAfter(due)) {
            return null;
        }
        try {
            JobRequest.Builder b = JobRequest.builder(info.topic())
                    .id(info.id())
                    .payload(info.payload())
                    .runAt(due)
                    .maxAttempts(info.maxAttempts())
                    .lease(info.lease())
                    .backoff(info.backoff())
                    .callbackUrl(info.callbackUrl())
                    .failureCallbackUrl(info.failureCallbackUrl())
                    .idempotencyWindow(settings.idempotencyWindow(info.topic()))
                    .onExpiry(info.onExpiry())
                    .priority(info.priority())
                    .expiresAt(info.expiresAt())
                    .onConflict(OnConflict.REPLACE);
            return b.build();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
