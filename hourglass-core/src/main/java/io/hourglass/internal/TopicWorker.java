package io.hourglass.internal;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one topic's shards moving for a worker (invariant 8): claims jobs into the worker's free {@link HandlerSlots}
 * and hands them to its {@link JobRunner}. A shard is claimed at its next due time (a timer armed from the claim's
 * reply, relative to the server time in it, so it never fires before the job is due by Redis's clock), on a wake
 * signal, when a handler slot frees while the shard still had ready jobs (the shards take turns), and on the backstop
 * sweep, which bounds what a lost signal, a dead peer or a Redis restart can delay. Up to
 * {@value #MAX_CLAIMS_IN_FLIGHT} claims per shard and max(2, shards) per topic are in flight; a trigger that can only
 * lead to leasing (a freed slot, a ready job, the timer) sends nothing without a free slot, nor beside another claim
 * with fewer than half the slots free: the shard is marked and the next freed slot or returning claim claims it.
 * Without that rule a topic of 16 shards on one Redis drained a burst in claims of about one job each, at three times
 * the Redis time per job of a topic of one shard. The sweep claims even with no free slot, which reaps the expired
 * leases of crashed workers. A claim carries the acks the worker's handlers queued for the shard
 * ({@link Leases#claimCarryingAcks}). An idle worker makes no call but the sweep. ARCHITECTURE.md ("How workers decide
 * when to call Redis") tells the whole rule set.
 */
final class TopicWorker implements WakeBus.Listener {
    private static final Logger log = LoggerFactory.getLogger(TopicWorker.class);
    /**
     * Claims of one shard in flight at once. With one, a slot freed during a claim's round trip waits for the reply
     * before the next claim can fill it; with two, a 16-slot worker drained a burst about 30% faster on a 2-vCPU
     * machine, with about the same Redis time per job. The second one goes only when
     * {@link HandlerSlots#enoughBesideAClaim}: a claim of one or two jobs costs Redis and the client a script run and a
     * round trip for little.
     */
    static final int MAX_CLAIMS_IN_FLIGHT = 2;

    private final ClientContext context;
    private final Leases leases;
    private final HandlerSlots slots;
    private final JobRunner runner;
    private final Lane lane;
    private final int maxBatch;
    private final String topic;
    private final ShardClaims[] shards;
    private final AtomicInteger nextToServe = new AtomicInteger();
    private final AtomicInteger topicClaimsInFlight = new AtomicInteger();
    private final int topicClaimsLimit;
    private volatile ScheduledFuture<?> sweep;
    private volatile boolean stopped;

    TopicWorker(
            ClientContext context,
            Leases leases,
            HandlerSlots slots,
            JobRunner runner,
            Lane lane,
            int maxBatch,
            String topic) {
        this.context = context;
        this.leases = leases;
        this.slots = slots;
        this.runner = runner;
        this.lane = lane;
        this.maxBatch = maxBatch;
        this.topic = topic;
        this.shards = new ShardClaims[context.layout().shards()];
        this.topicClaimsLimit = Math.max(shards.length, MAX_CLAIMS_IN_FLIGHT);
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new ShardClaims(i);
        }
    }

    void start() {
        context.wakeBus().register(topic, this);
        long interval = context.settings().sweepInterval().toMillis();
        // Spread the sweeps of many processes over the interval.
        long first = ThreadLocalRandom.current().nextLong(interval) + 1;
        sweep = context.timer().scheduleWithFixedDelay(this::sweep, first, interval, TimeUnit.MILLISECONDS);
        sweep();
    }

    private void sweep() {
        for (ShardClaims s : shards) {
            claim(s, false);
        }
    }

    @Override
    public void wake(Lane lane, int shard, long dueMs) {
        if (lane != lane || shard < 0 || shard >= shards.length || stopped) {
            return;
        }
        long wait = dueMs - context.clock().nowMs();
        if (wait <= 0) {
            claim(shards[shard], true);
        } else {
            arm(shards[shard], dueMs, wait);
        }
    }

    /**
     * Offers freed handler slots to the shards with ready jobs left, starting one shard further each time, so that
     * under a backlog the shards take turns rather than the first draining before the next is served.
     */
    void onSlotsFreed() {
        int first = Math.floorMod(nextToServe.getAndIncrement(), shards.length);
        for (int k = 0; k < shards.length; k++) {
            ShardClaims s = shards[(first + k) % shards.length];
            boolean backlog;
            synchronized (s) {
                backlog = s.backlog;
            }
            if (backlog && slots.hasFree()) {
                claim(s, true);
            }
        }
    }

    /**
     * Claims the shard into the free slots.
     *
     * @param onlyForSlots true when the trigger can only lead to leasing jobs (a freed slot, a ready job, the due-time
     *     timer), so that with no free slot nothing is sent; false for the sweep, which also reaps
     */
    private void claim(ShardClaims s, boolean onlyForSlots) {
        while (!stopped) {
            long sequence;
            synchronized (s) {
                if (s.claimsInFlight >= MAX_CLAIMS_IN_FLIGHT
                        || (s.claimsInFlight > 0
                                && (topicClaimsInFlight.get() >= topicClaimsLimit
                                        || onlyForSlots && !slots.enoughBesideAClaim()))) {
                    s.claimAgain = true;
                    s.claimAgainWithoutSlots |= !onlyForSlots;
                    return;
                }
                if (onlyForSlots && topicClaimsInFlight.get() > 0 && !slots.enoughBesideAClaim()) {
                    // Beside another shard's claim, as beside one of its own: wait for more free slots rather than
                    // send a claim of one or two jobs. The claim in flight offers the free slots to the shards with
                    // ready jobs when it returns, and so does each freed slot.
                    s.backlog = true;
                    return;
                }
                s.claimsInFlight++;
                topicClaimsInFlight.incrementAndGet();
                sequence = ++s.claimsSent;
            }
            int taken = slots.take(maxBatch);
            if (taken > 0 || !onlyForSlots) {
                long sent = System.nanoTime();
                leases.claimCarryingAcks(topic, s.index, lane, taken)
                        .whenComplete((batch, error) -> onClaimed(s, taken, sequence, sent, batch, error));
                return;
            }
            synchronized (s) {
                claimEnded(s);
                s.backlog = true;
                // Newer than any reply still on its way, which may predate the job that triggered this claim.
                s.newestReply = sequence;
            }
            leases.flushAcks(topic, s.index);
            // A slot freed before the backlog mark was set did not see it: look again.
            if (!slots.hasFree()) {
                return;
            }
        }
    }

    /** Counts a claim of {@code s} as no longer in flight; the caller holds {@code s}'s lock. */
    private void claimEnded(ShardClaims s) {
        s.claimsInFlight--;
        topicClaimsInFlight.decrementAndGet();
    }

    /**
     * Sends the shard's queued acks now unless a claim of the shard is in flight: that claim carries them when it
     * re-runs, or its reply ({@link #onClaimed}) sends them. Called after a handler queued its ack, and at the end of
     * each reply.
     */
    void flushAcksUnlessClaimInFlight(int shard) {
        ShardClaims s = shards[shard];
        synchronized (s) {
            if (s.claimsInFlight > 0) {
                return;
            }
        }
        leases.flushAcks(topic, shard);
    }

    /**
     * After a handler's ack was queued and its slot freed: a shard whose ready jobs the topic's concurrency cap held
     * back is claimed now, and the claim carries the ack that frees the place; otherwise the ack is sent unless a claim
     * will carry it.
     */
    private void onAckQueued(ShardClaims s) {
        boolean capped;
        synchronized (s) {
            capped = s.capped;
        }
        if (capped && slots.hasFree()) {
            claim(s, true);
        }
        flushAcksUnlessClaimInFlight(s.index);
    }

    /** Sends every queued ack of this topic's shards (at close). */
    void flushAcks() {
        for (ShardClaims s : shards) {
            leases.flushAcks(topic, s.index);
        }
    }

    private void onClaimed(ShardClaims s, int taken, long sequence, long sentNanos, ClaimBatch batch, Throwable error) {
        long received = System.nanoTime();
        if (error != null) {
            // Before claimEnded: a claim that fails at once (no connection) runs this on the caller's stack, and the
            // claims the freed slots start must see this one still in flight, or they would recur without bound.
            slots.release(taken);
            synchronized (s) {
                claimEnded(s);
                if (!s.failing) {
                    s.failing = true;
                    log.warn(
                            "claiming from topic {} shard {} failed; retrying at each sweep ({} ms)"
                                    + " until Redis answers: {}",
                            topic,
                            s.index,
                            context.settings().sweepInterval().toMillis(),
                            RedisGateway.unwrap(error).toString());
                }
            }
            leases.flushAcks(topic, s.index);
            return;
        }
        context.clock().sample(batch.serverNowMs(), sentNanos, received);
        if (!batch.dead().isEmpty()) {
            runner.logReaped(topic, batch.dead());
        }
        for (ClaimBatch.Claimed job : batch.jobs()) {
            runner.submit(topic, s.index, job, () -> onAckQueued(s));
        }
        boolean again;
        boolean againWithoutSlots;
        synchronized (s) {
            if (s.failing) {
                s.failing = false;
                log.info("claiming from topic {} shard {} works again", topic, s.index);
            }
            claimEnded(s);
            again = s.claimAgain;
            againWithoutSlots = s.claimAgainWithoutSlots;
            s.claimAgain = false;
            s.claimAgainWithoutSlots = false;
            if (sequence > s.newestReply) {
                s.newestReply = sequence;
                s.backlog = batch.moreReady();
                s.capped = batch.capped();
            }
        }
        if (batch.nextDueMs() >= 0) {
            // Relative to the server time in the reply, so the timer cannot fire before the job is due.
            long waitMs = batch.nextDueMs() - batch.serverNowMs();
            arm(s, batch.nextDueMs(), Math.max(waitMs, 1) - (received - sentNanos) / 2_000_000);
        }
        int unused = taken - batch.jobs().size();
        if (unused > 0) {
            // Offers them to the shards with ready jobs, this one among them; after claimEnded, as above.
            slots.release(unused);
        }
        if (againWithoutSlots) {
            claim(s, false);
        } else if (again || (batch.moreReady() && slots.hasFree())) {
            claim(s, true);
        }
        if (unused == 0 && shards.length > 1 && slots.hasFree()) {
            // Slots freed while this claim was out may have been left for it to offer (see claim).
            onSlotsFreed();
        }
        flushAcksUnlessClaimInFlight(s.index);
    }

    private void arm(ShardClaims s, long dueMs, long waitMs) {
        synchronized (s) {
            if (stopped || (s.timer != null && s.timerDueMs <= dueMs && !s.timer.isDone())) {
                return;
            }
            if (s.timer != null) {
                s.timer.cancel(false);
            }
            s.timerDueMs = dueMs;
            s.timer = context.timer()
                    .schedule(
                            () -> {
                                synchronized (s) {
                                    s.timer = null;
                                    s.timerDueMs = Long.MAX_VALUE;
                                }
                                claim(s, true);
                            },
                            Math.max(waitMs, 0) * 1000 + 500,
                            TimeUnit.MICROSECONDS);
        }
    }

    void stop() {
        stopped = true;
        context.wakeBus().unregister(topic, this);
        ScheduledFuture<?> sw = sweep;
        if (sw != null) {
            sw.cancel(false);
        }
        for (ShardClaims s : shards) {
            synchronized (s) {
                if (s.timer != null) {
                    s.timer.cancel(false);
                }
            }
        }
    }

    void awaitNoClaimInFlight(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        for (ShardClaims s : shards) {
            while (System.nanoTime() < deadline) {
                synchronized (s) {
                    if (s.claimsInFlight == 0) {
                        break;
                    }
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
