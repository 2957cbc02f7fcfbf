package io.hourglass.internal;

import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.JobHandler;
import io.hourglass.JobState;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The consumer side of {@link io.hourglass.Hourglass}: in-process workers ({@link Dispatcher}), callback delivery (a
 * dispatcher over every topic's callback lane) and the pull API (reserve, then ack, nack or extend by receipt).
 * Thread-safe.
 */
final class Consumer {
    private final ClientContext context;
    private final Leases leases;
    private final TopicRegistry topics;
    private final Set<Dispatcher> dispatchers = ConcurrentHashMap.newKeySet();
    private final FailureLog failures;

    Consumer(ClientContext context, Leases leases, TopicRegistry topics) {
        this.context = context;
        this.leases = leases;
        this.topics = topics;
        this.failures = new FailureLog(context.timer(), context.settings().events());
    }

    Worker subscribe(String topic, JobHandler handler, WorkerOptions options) {
        Names.checkTopic(topic);
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(options, "options");
        context.checkOpen();
        Dispatcher d = track(new Dispatcher(context, leases, topic, Lane.WORKER, handler, options, failures, null));
        d.addTopic(topic);
        return d;
    }

    Worker startCallbackDelivery(CallbackOptions options) {
        Objects.requireNonNull(options, "options");
        context.checkOpen();
        WorkerOptions workerOptions = WorkerOptions.builder()
                .concurrency(options.concurrency())
                .maxBatch(Math.min(options.concurrency(), WorkerOptions.DEFAULT_MAX_BATCH))
                .virtualThreads(options.virtualThreads())
                // A receiver slower than the job's lease (but within the timeout) must not get the job again.
                .autoExtendLease(true)
                .failureLogLevel(options.failureLogLevel())
                .logStackTraces(options.logStackTraces())
                .build();
        CallbackHandler post = new CallbackHandler(options, context.callbackAllowList(), context.timer());
        Dispatcher d = track(
                new Dispatcher(context, leases, "*", Lane.CALLBACK, post, workerOptions, failures, post.pacing()));
        d.onClose(post::close);
        d.onClose(topics.onNewTopic(d::addTopic));
        Runnable discover = () -> {
            try {
                topics.all().forEach(d::addTopic);
            } catch (RuntimeException e) {
                d.logRedisFailure("topic discovery", e);
            }
        };
        discover.run();
        long every = context.settings().sweepInterval().toMillis() * 5;
        ScheduledFuture<?> rediscovery =
                context.timer().scheduleWithFixedDelay(discover, every, every, TimeUnit.MILLISECONDS);
        d.onClose(() -> rediscovery.cancel(false));
        return d;
    }

    private Dispatcher track(Dispatcher d) {
        dispatchers.add(d);
        d.onClose(() -> dispatchers.remove(d));
        return d;
    }

    CompletableFuture<List<Delivery>> reserve(String topic, int max, Duration lease, Duration wait) {
        Names.checkTopic(topic);
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max: must be between 1 and 1000, got " + max);
        }
        long leaseMs = lease == null ? 0 : Names.checkLease(lease, "lease").toMillis();
        if (wait == null || wait.isNegative() || wait.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("wait: must be between 0 and 5 minutes, got " + wait);
        }
        context.checkOpen();
        Reservation reservation = new Reservation(context, leases, failures, topic, max, leaseMs, wait);
        // Listen before the first claim, so a job that becomes ready in between is not missed.
        return reservation.start(context.wakeBus().register(topic, Lane.WORKER, reservation));
    }

    void ack(String topic, String id, String receipt, byte[] result) {
        context.redis().await(leases.ack(topic, id, receipt, result), "ack");
    }

    JobState nack(String topic, String id, String receipt, String error, Duration retryDelay) {
        if (retryDelay != null && retryDelay.isNegative()) {
            throw new IllegalArgumentException("retryDelay: must be zero or positive, got " + retryDelay);
        }
        if (retryDelay != null) {
            context.checkDelay(retryDelay, "retryDelay");
        }
        Long delayMs = retryDelay == null ? null : retryDelay.toMillis();
        JobState state = context.redis().await(leases.nack(topic, id, receipt, error, delayMs), "nack");
        if (state == JobState.DEAD) {
            failures.dead(
                    topic,
                    id,
                    "was nacked by a pull worker on its last attempt",
                    lastError(error),
                    null,
                    WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL,
                    false);
        }
        return state;
    }

    JobState deadLetter(String topic, String id, String receipt, String error) {
        JobState state = context.redis().await(leases.nack(topic, id, receipt, error, -1L), "dead letter");
        failures.dead(
                topic,
                id,
                "was dead-lettered by a pull worker",
                lastError(error),
                null,
                WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL,
                false);
        return state;
    }

    private static String lastError(String error) {
        return error == null || error.isEmpty() ? "(none given)" : error;
    }

    Instant extend(String topic, String id, String receipt, Duration lease) {
        return leases.extend(topic, id, receipt, lease);
    }

    /** Closes every worker still running, gracefully. */
    void close() {
        for (Dispatcher d : List.copyOf(dispatchers)) {
            d.close();
        }
    }
}
