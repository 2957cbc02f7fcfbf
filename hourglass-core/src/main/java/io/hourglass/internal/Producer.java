package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.HourglassException;
import io.hourglass.HourglassSettings;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.validation.Names;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The producer side of {@link io.hourglass.Hourglass}: schedule, get, cancel and reschedule. Validates each request
 * against the instance's limits, then sends it; schedules of one shard that arrive together travel in one script run
 * ({@link ShardBatcher}). Thread-safe.
 */
final class Producer {
    /**
     * Most schedules one call carries. A schedule costs Redis ~15 µs, four times an ack, and a claim on the same shard
     * waits behind the batch in flight; 64 (~1 ms of Redis time) keeps that wait near an ack batch's while still
     * cutting round trips 64-fold; a batch of 256 would hold such a claim ~4 ms.
     */
    static final int MAX_SCHEDULE_BATCH = 64;
    /** Most argument bytes (payloads, mostly) one batch of schedules carries, unless one job alone is larger. */
    static final int MAX_BATCH_BYTES = 1 << 20;

    private final ClientContext context;
    private final HourglassSettings settings;
    private final Scripts scripts;
    private final TopicRegistry topics;
    private final ShardBatcher<List<Object>> schedules;

    Producer(ClientContext context, Scripts scripts, TopicRegistry topics) {
        this.context = context;
        this.settings = context.settings();
        this.scripts = scripts;
        this.topics = topics;
        this.schedules = new ShardBatcher<>(MAX_SCHEDULE_BATCH, MAX_BATCH_BYTES, scripts::schedule);
    }

    /**
     * Draws of a generated id one schedule makes before it reports the conflict: with {@link Names#NEW_ID_BITS} random
     * bits and ten million ids held in a topic a second draw is needed about once in 5 × 10^14 schedules, so the bound
     * only stops a broken random source from looping.
     */
    static final int ID_DRAWS = 4;

    CompletableFuture<ScheduleResult> schedule(JobRequest request) {
        return scheduleDrawingIds(prepare(request), this::send);
    }

    /**
     * Schedules {@code p} by {@code route}; when the request gave no id and the generated one is taken already (a job,
     * or an id still reserved, holds it: {@link JobAlreadyExistsException}), prepares the request again with a newly
     * drawn id and routes that, up to {@link #ID_DRAWS} draws in all. A caller's own id is routed once.
     */
    CompletableFuture<ScheduleResult> scheduleDrawingIds(
            Prepared p, Function<Prepared, CompletableFuture<ScheduleResult>> route) {
        if (p.request().id() != null) {
            return route.apply(p);
        }
        return drawingIds(p, () -> prepare(p.request()), route, ID_DRAWS);
    }

    /**
     * {@link #scheduleDrawingIds}'s loop: {@code route} of {@code request}, then of {@code redraw}'s on each conflict.
     * Any other outcome is passed on as {@code route}'s future completed, a failure wrapped or not as it was, so a
     * caller sees what it would have seen without the loop.
     */
    static <T> CompletableFuture<ScheduleResult> drawingIds(
            T request, Supplier<T> redraw, Function<T, CompletableFuture<ScheduleResult>> route, int draws) {
        CompletableFuture<ScheduleResult> routed;
        try {
            routed = route.apply(request);
        } catch (RuntimeException e) {
            routed = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<ScheduleResult> outcome = new CompletableFuture<>();
        routed.whenComplete((result, failure) -> {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof JobAlreadyExistsException && draws > 1) {
                CompletableFuture<ScheduleResult> again;
                try {
                    again = drawingIds(redraw.get(), redraw, route, draws - 1);
                } catch (RuntimeException e) {
                    again = CompletableFuture.failedFuture(e);
                }
                again.whenComplete((next, error) -> complete(outcome, next, error));
            } else {
                complete(outcome, result, failure);
            }
        });
        return outcome;
    }

    /**
     * Completes {@code future} with {@code result}, or with {@code failure} as it is (wrapped or not) when not null.
     */
    private static <R> void complete(CompletableFuture<R> future, R result, Throwable failure) {
        if (failure == null) {
            future.complete(result);
        } else {
            future.completeExceptionally(failure);
        }
    }

    /**
     * A request checked against this instance's limits, with its defaults filled in and its script arguments packed.
     * {@code mode} and {@code when} as {@code schedule.lua} takes them: {@code "at"} with epoch ms, or {@code "delay"}
     * with ms from Redis's now.
     */
    record Prepared(
            JobRequest request,
            String topic,
            String id,
            String mode,
            long when,
            int maxAttempts,
            long leaseMs,
            Backoff backoff,
            long windowMs,
            String callback,
            int shard,
            byte[][] args) {}

    /** @throws IllegalArgumentException naming the field, when the request exceeds this instance's limits */
    Prepared prepare(JobRequest request) {
        Objects.requireNonNull(request, "request");
        context.checkOpen();
        byte[] payload = request.payload();
        if (payload.length > settings.maxPayloadBytes()) {
            throw new IllegalArgumentException("payload: " + payload.length + " bytes is more than the limit of "
                    + settings.maxPayloadBytes() + " bytes");
        }
        String mode;
        long when;
        if (request.runAt() != null) {
            mode = "at";
            when = request.runAt().toEpochMilli();
            context.checkDelay(Duration.ofMillis(Math.max(0, when - System.currentTimeMillis())), "runAt");
        } else {
            mode = "delay";
            when = context.checkDelay(request.delay(), "delay").toMillis();
        }
        String topic = request.topic();
        // A cold tier's jobs are not looked up for a generated id (ColdTiering.schedule): there an id must not repeat
        // on its own.
        String id = request.id() != null
                ? request.id()
                : Names.newId(settings.coldTier() == null ? Names.NEW_ID_BITS : Names.UNCHECKED_NEW_ID_BITS);
        int maxAttempts = request.maxAttempts() != null ? request.maxAttempts() : settings.defaultMaxAttempts();
        long leaseMs = (request.lease() != null ? request.lease() : settings.defaultLease()).toMillis();
        Backoff backoff = request.backoff() != null ? request.backoff() : settings.defaultBackoff();
        String callback = allowed(request.callbackUrl(), "callbackUrl");
        String failureUrl = allowed(request.failureCallbackUrl(), "failureCallbackUrl");
        Scripts.Expiry expiry = expiry(request, mode, when);
        long windowMs = (request.idempotencyWindow() != null
                        ? request.idempotencyWindow()
                        : settings.idempotencyWindow(topic))
                .toMillis();
        int shard = context.layout().shardOf(id);
        byte[][] args = Scripts.scheduleArgs(
                id,
                onConflict(request),
                mode,
                when,
                maxAttempts,
                leaseMs,
                backoff,
                callback,
                windowMs,
                payload,
                expiry,
                failureUrl,
                request.priority(),
                request.dispatchDeadline() == null
                        ? 0
                        : request.dispatchDeadline().toMillis());
        return new Prepared(
                request, topic, id, mode, when, maxAttempts, leaseMs, backoff, windowMs, callback, shard, args);
    }

    /**
     * What a schedule of {@code request} does on a taken id: the request's own rule for a caller's id, and
     * {@link OnConflict#REJECT} for a generated one, as no job can hold an id not yet drawn: a taken generated id is a
     * repeat of random bits, which never keeps or replaces that other job but is drawn again
     * ({@link #scheduleDrawingIds}).
     */
    static OnConflict onConflict(JobRequest request) {
        return request.id() != null ? request.onConflict() : OnConflict.REJECT;
    }

    /** Schedules a prepared request into Redis. */
    CompletableFuture<ScheduleResult> send(Prepared p) {
        return send(p, true);
    }

    /**
     * Schedules a job that moves between tiers into Redis without telling {@link io.hourglass.JobEvents}: it was
     * scheduled once already.
     */
    CompletableFuture<ScheduleResult> move(Prepared p) {
        return send(p, false);
    }

    private CompletableFuture<ScheduleResult> send(Prepared p, boolean tellEvents) {
        String topic = p.topic();
        String id = p.id();
        String callback = p.callback();
        int shard = p.shard();
        return topics.register(topic)
                .thenCompose(ignored -> schedules.submit(topic, shard, p.args()))
                .thenApply(reply -> {
                    ScheduleResult result = Scripts.scheduled(id, topic, reply);
                    if (result.outcome() != ScheduleResult.Outcome.KEPT) {
                        if (tellEvents) {
                            Events.notify(() -> settings.events().scheduled(result));
                        }
                        if (settings.pollingMode()) {
                            // No pub/sub here: at least this process's own workers hear of the job at once.
                            Lane lane = callback.isEmpty() ? Lane.WORKER : Lane.CALLBACK;
                            context.wakeBus()
                                    .publishLocally(
                                            topic,
                                            lane.index + ":" + shard + ":"
                                                    + result.dueAt().toEpochMilli());
                        }
                    }
                    return result;
                });
    }

    /** The URL as {@code schedule.lua} takes it ({@code ""} for none), once the callback allow-list lets it through. */
    private String allowed(URI url, String field) {
        if (url == null) {
            return "";
        }
        String refusal = context.callbackAllowList().refusal(url);
        if (refusal != null) {
            throw new IllegalArgumentException(field + ": " + refusal);
        }
        return url.toString();
    }

    /**
     * The request's expiry as {@code schedule.lua} takes it. An expiry instant must lie after the due time: after
     * {@code runAt}, or after now plus the delay by this machine's clock (Redis's may differ a little; a job whose
     * expiry Redis finds passed when it is due simply expires undelivered).
     */
    private static Scripts.Expiry expiry(JobRequest request, String mode, long when) {
        if (request.ttl() != null) {
            return new Scripts.Expiry("ttl", request.ttl().toMillis(), request.onExpiry());
        }
        if (request.expiresAt() == null) {
            return new Scripts.Expiry("", 0, request.onExpiry());
        }
        long expiresAt = request.expiresAt().toEpochMilli();
        long due = mode.equals("at") ? when : System.currentTimeMillis() + when;
        if (expiresAt <= due) {
            throw new IllegalArgumentException("expiresAt: must be after the job's due time "
                    + Instant.ofEpochMilli(due) + ", got " + request.expiresAt());
        }
        return new Scripts.Expiry("at", expiresAt, request.onExpiry());
    }

    Optional<JobInfo> get(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        return context.redis().await(scripts.get(topic, id), "get");
    }

    boolean cancel(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        return !context.redis().await(scripts.cancel(topic, id, ""), "cancel").equals("MISSING");
    }

    Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt) {
        Objects.requireNonNull(runAt, "runAt");
        context.checkDelay(Duration.ofMillis(Math.max(0, runAt.toEpochMilli() - System.currentTimeMillis())), "runAt");
        return reschedule(topic, id, "at", runAt.toEpochMilli());
    }

    Optional<ScheduleResult> reschedule(String topic, String id, Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay: must be zero or positive, got " + delay);
        }
        return reschedule(topic, id, "delay", context.checkDelay(delay, "delay").toMillis());
    }

    private Optional<ScheduleResult> reschedule(String topic, String id, String mode, long when) {
        Names.checkTopic(topic);
        Names.checkId(id);
        Scripts.Rescheduled reply = context.redis().await(scripts.reschedule(topic, id, mode, when), "reschedule");
        if (reply.outcome().equals("MISSING")) {
            return Optional.empty();
        }
        if (reply.outcome().equals("DEAD")) {
            throw new HourglassException("job '" + id + "' in topic '" + topic + "' is dead: requeue it instead");
        }
        return Optional.of(reply.result());
    }
}
