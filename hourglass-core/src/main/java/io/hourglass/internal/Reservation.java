package io.hourglass.internal;

import io.hourglass.Delivery;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One long-poll of a pull worker: claims from the topic's shards until it has {@code max} jobs or has tried them all;
 * when it got none, waits for a wake signal, the next due time or the end of the wait, and tries again. Its caller
 * registers it for the topic's wake signals.
 */
final class Reservation implements WakeBus.Listener {
    private final ServerClock clock;
    private final ScheduledExecutorService timers;
    private final int shards;
    private final Leases leases;
    private final FailureLog failures;
    private final String topic;
    private final int max;
    private final long leaseMs;
    private final long deadlineNanos;
    private final CompletableFuture<List<Delivery>> result = new CompletableFuture<>();
    private final List<Delivery> collected = new ArrayList<>();
    private boolean attemptInFlight;
    private boolean attemptAgain;
    private ScheduledFuture<?> timer;

    Reservation(
            ClientContext context,
            Leases leases,
            FailureLog failures,
            String topic,
            int max,
            long leaseMs,
            Duration wait) {
        this.clock = context.clock();
        this.timers = context.timer();
        this.shards = context.layout().shards();
        this.leases = leases;
        this.failures = failures;
        this.topic = topic;
        this.max = max;
        this.leaseMs = leaseMs;
        this.deadlineNanos = System.nanoTime() + wait.toNanos();
    }

    /**
     * Starts claiming; {@code stopListening} ends the wake-signal registration that the caller made before, so that a
     * job that becomes ready before the first claim is not missed.
     */
    CompletableFuture<List<Delivery>> start(Runnable stopListening) {
        result.whenComplete((r, e) -> {
            stopListening.run();
            synchronized (this) {
                if (timer != null) {
                    timer.cancel(false);
                }
            }
        });
        attempt();
        return result;
    }

    @Override
    public void wake(int shard, long dueMs) {
        long wait = dueMs - clock.nowMs();
        if (wait <= 0) {
            attempt();
        } else {
            armTimer(wait);
        }
    }

    private void attempt() {
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            if (attemptInFlight) {
                attemptAgain = true;
                return;
            }
            attemptInFlight = true;
            attemptAgain = false;
        }
        claimFrom(ThreadLocalRandom.current().nextInt(shards), shards, Long.MAX_VALUE);
    }

    private void claimFrom(int shard, int remaining, long nextDueMs) {
        long sent = System.nanoTime();
        leases.claim(topic, shard, Lane.WORKER, max - collected.size(), leaseMs).whenComplete((batch, error) -> {
            if (error != null) {
                result.completeExceptionally(RedisGateway.translate(error, "reserve"));
                return;
            }
            clock.sample(batch.serverNowMs(), sent, System.nanoTime());
            if (!batch.dead().isEmpty()) {
                failures.reaped(topic, batch.dead(), WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL);
            }
            for (ClaimBatch.Claimed c : batch.jobs()) {
                JobRecord r = c.record();
                collected.add(new Delivery(
                        topic,
                        c.id(),
                        r.payload(),
                        c.attempt(),
                        r.maxAttempts(),
                        Instant.ofEpochMilli(r.dueMs()),
                        c.receipt(),
                        Instant.ofEpochMilli(c.leaseUntilMs())));
            }
            long next = nextDueMs;
            if (batch.nextDueMs() >= 0) {
                next = Math.min(next, batch.nextDueMs() - batch.serverNowMs() + clock.nowMs());
            }
            if (collected.size() < max && remaining > 1) {
                claimFrom((shard + 1) % shards, remaining - 1, next);
            } else {
                finishAttempt(next);
            }
        });
    }

    private void finishAttempt(long nextDueMs) {
        boolean again;
        synchronized (this) {
            attemptInFlight = false;
            again = attemptAgain;
        }
        if (!collected.isEmpty() || System.nanoTime() >= deadlineNanos) {
            // A reservation that timed out after claiming returns what it claimed: nothing is left leased unseen.
            result.complete(List.copyOf(collected));
            return;
        }
        if (again) {
            attempt();
            return;
        }
        long untilDeadline = (deadlineNanos - System.nanoTime()) / 1_000_000;
        long untilDue = nextDueMs == Long.MAX_VALUE ? Long.MAX_VALUE : nextDueMs - clock.nowMs();
        armTimer(Math.max(0, Math.min(untilDeadline, untilDue)));
    }

    private synchronized void armTimer(long waitMs) {
        if (result.isDone()) {
            return;
        }
        if (timer != null && timer.getDelay(TimeUnit.MILLISECONDS) <= waitMs && !timer.isDone()) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timer = timers.schedule(this::attempt, waitMs * 1000 + 500, TimeUnit.MICROSECONDS);
    }
}
