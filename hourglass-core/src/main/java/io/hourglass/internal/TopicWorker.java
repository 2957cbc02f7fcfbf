package io.hourglass.internal;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one topic's shards moving for a worker (invariant 8): claims jobs into the worker's free {@link HandlerSlots},
 * runs each on a handler thread of its {@link JobRunner} and, on that thread when the job ends, frees its slot for the
 * worker's topics and sends its ack unless a claim will carry it. No part below calls back into it (a claim's reply
 * returns through its future). A shard is claimed at its next due time (a timer armed from the claim's reply, relative
 * to the server time in it, so it never fires before the job is due by Redis's clock), on a wake signal, when a handler
 * slot frees while the shard still had ready jobs (the shards take turns), and on the backstop sweep, which bounds what
 * a lost signal, a dead peer or a Redis restart can delay. A freed slot goes first to the shard whose job freed it, for
 * a few claims in a row ({@link #TURN_CLAIMS}), so that its claim carries that job's ack, which waits for it a little
 * ({@link #ACK_HOLD_MICROS}); with no job ready, an ack waits a little longer for the claim of the due-time timer when
 * that is about to fire ({@link #ACK_HOLD_FOR_TIMER_MICROS}). Up to {@value #MAX_CLAIMS_IN_FLIGHT} claims per shard and
 * max(2, shards) per topic are in flight; a trigger that can only lead to leasing (a freed slot, a ready job, the
 * timer) sends nothing without a free slot, nor beside another claim with fewer slots free than
 * {@link HandlerSlots#enoughBesideAClaim} asks (half of them on one Redis; on a cluster, a share of that per master):
 * the shard is marked and the next freed slot or returning claim claims it. The sweep claims even with no free slot,
 * which reaps the expired leases of crashed workers. A claim carries the acks the worker's handlers queued for the
 * shard ({@link Leases#claimCarryingAcks}). An idle worker makes no call but the sweep. ARCHITECTURE.md ("How workers
 * decide when to call Redis") tells the whole rule set.
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

    /**
     * Claims for freed slots one shard may send in a row before the slots its own finished jobs free go to the other
     * shards with ready jobs. The claim that goes back to the shard carries the acks of the jobs that freed the slots
     * (a claim may touch only its own shard's keys: one cluster slot); one that goes to another shard leaves them to
     * {@code ack.lua}. In a burst over 48 shards on one Redis, in which every freed slot went to the next shard in
     * turn, most script calls were acks that went alone. Bounded, so that under a backlog no shard waits for another to
     * drain: it waits for at most this many claims of each shard served before it.
     */
    static final int TURN_CLAIMS = 2;

    /**
     * Longest wait (µs) of a queued ack of a shard with ready jobs for a claim of the shard to carry it; then it goes
     * in {@code ack.lua} with the acks queued meanwhile. Only acks wait, never a claim: a punctual job is as early as
     * ever, and its ack at most this much later. An ack held when the process dies is lost with it, and its job is
     * delivered again when its lease expires, as with any ack in flight.
     */
    static final long ACK_HOLD_MICROS = 2_000;

    /**
     * Longest wait (µs) of a queued ack for the claim of the shard's due-time timer, when nothing else is ready: jobs
     * coming due one after another (a steady rate of 200 jobs/s per shard or more) then cost one script call each, a
     * claim that carries the ack of the job before, instead of a claim and an ack. In the bench at 1,000 jobs/s on a
     * 2-vCPU machine the script calls per job fell from 1.93 to 1.09 and Redis's time in scripts per job by a fifth.
     */
    static final long ACK_HOLD_FOR_TIMER_MICROS = 5_000;

    private final WorkerParts parts;
    private final Leases leases;
    private final HandlerSlots slots;
    private final String topic;
    private final ShardClaims[] shards;
    private final AtomicInteger nextToServe = new AtomicInteger();
    private final AtomicInteger topicClaimsInFlight = new AtomicInteger();
    private final int topicClaimsLimit;
    /** The topic's window of callback requests in flight ({@link CallbackPacing}); null for a worker of handlers. */
    private final CallbackPacing.Window window;

    private volatile ScheduledFuture<?> sweep;
    private volatile boolean stopped;

    TopicWorker(WorkerParts parts, String topic) {
        this.parts = parts;
        this.leases = parts.leases();
        this.slots = parts.slots();
        this.topic = topic;
        this.shards = new ShardClaims[parts.shards()];
        this.topicClaimsLimit = Math.max(shards.length, MAX_CLAIMS_IN_FLIGHT);
        this.window = parts.pacing() == null ? null : parts.pacing().of(topic);
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new ShardClaims(i);
        }
    }

    void start() {
        long interval = parts.sweepInterval().toMillis();
        // Spread the sweeps of many processes over the interval.
        long first = ThreadLocalRandom.current().nextLong(interval) + 1;
        sweep = parts.timer().scheduleWithFixedDelay(this::sweep, first, interval, TimeUnit.MILLISECONDS);
        sweep();
    }

    private void sweep() {
        for (ShardClaims s : shards) {
            claim(s, false);
        }
    }

    @Override
    public void wake(int shard, long dueMs) {
        if (shard < 0 || shard >= shards.length || stopped) {
            return;
        }
        long wait = dueMs - parts.clock().nowMs();
        if (wait <= 0) {
            claim(shards[shard], true);
        } else {
            arm(shards[shard], dueMs, wait);
        }
    }

    /**
     * Offers freed handler slots first to {@code from}, the shard whose finished job freed one (null for none), while
     * it has ready jobs and its turn has claims left ({@link #TURN_CLAIMS}), so that the claim carries the acks of its
     * jobs; then to the shards with ready jobs left, starting after the last shard they went to, so that under a
     * backlog the shards take turns rather than the first draining before the next is served; a shard whose turn just
     * ended comes last of all.
     */
    private void onSlotsFreed(ShardClaims from) {
        boolean turnEnded = false;
        if (from != null && from.hasBacklog() && slots.hasFree()) {
            if (from.hasTurnClaimsLeft()) {
                claim(from, true, false);
            } else {
                turnEnded = true;
            }
        }
        // After a turn, the shards after it come first: in circular order, whichever shard's turn came first.
        int first = Math.floorMod(turnEnded ? from.index + 1 : nextToServe.get(), shards.length);
        for (int k = 0; k < shards.length; k++) {
            ShardClaims s = shards[(first + k) % shards.length];
            if (!(turnEnded && s == from) && s.hasBacklog() && slots.hasFree() && claim(s, true, true)) {
                // The next freed slot starts one shard further: round robin, whatever the order of the replies.
                nextToServe.set(s.index + 1);
            }
        }
        if (turnEnded && from.hasBacklog() && slots.hasFree()) {
            claim(from, true, true);
        }
    }

    /**
     * Claims the shard into the free slots.
     *
     * @param onlyForSlots true when the trigger can only lead to leasing jobs (a freed slot, a ready job, the due-time
     *     timer), so that with no free slot nothing is sent; false for the sweep, which also reaps
     */
    private void claim(ShardClaims s, boolean onlyForSlots) {
        claim(s, onlyForSlots, false);
    }

    /**
     * Claims the shard into the free slots.
     *
     * @param onlyForSlots true when the trigger can only lead to leasing jobs (a freed slot, a ready job, the due-time
     *     timer), so that with no free slot nothing is sent; false for the sweep, which also reaps
     * @param newTurn true when the shard's turn for freed slots begins with this claim ({@link #TURN_CLAIMS})
     * @return whether a claim went to Redis
     */
    private boolean claim(ShardClaims s, boolean onlyForSlots, boolean newTurn) {
        while (!stopped) {
            long sequence;
            synchronized (s) {
                if (s.claimsInFlight >= MAX_CLAIMS_IN_FLIGHT
                        || (s.claimsInFlight > 0
                                && (topicClaimsInFlight.get() >= topicClaimsLimit
                                        || onlyForSlots && !slots.enoughBesideAClaim()))) {
                    s.claimAgain = true;
                    s.claimAgainWithoutSlots |= !onlyForSlots;
                    return false;
                }
                if (onlyForSlots && topicClaimsInFlight.get() > 0 && !slots.enoughBesideAClaim()) {
                    // Beside another shard's claim, as beside one of its own: wait for more free slots rather than
                    // send a claim of one or two jobs. The claim in flight offers the free slots to the shards with
                    // ready jobs when it returns, and so does each freed slot.
                    s.backlog = true;
                    return false;
                }
                s.claimsInFlight++;
                topicClaimsInFlight.incrementAndGet();
                sequence = ++s.claimsSent;
                if (onlyForSlots) {
                    // The rotation reaches a shard again only after every other shard with ready jobs: a new turn.
                    s.turnClaims = newTurn ? 1 : s.turnClaims + 1;
                }
            }
            int taken = takeSlots();
            if (taken > 0 || !onlyForSlots) {
                long sent = System.nanoTime();
                leases.claimCarryingAcks(topic, s.index, parts.lane(), taken)
                        .whenComplete((batch, error) -> onClaimed(s, taken, sequence, sent, batch, error));
                return true;
            }
            synchronized (s) {
                claimEnded(s);
                s.backlog = true;
                // Newer than any reply still on its way, which may predate the job that triggered this claim.
                s.newestReply = sequence;
            }
            leases.flushAcks(topic, s.index);
            // A slot freed before the backlog mark was set did not see it: look again.
            if (!slots.hasFree() || (window != null && !window.hasRoom())) {
                return false;
            }
        }
        return false;
    }

    /**
     * Takes free slots for a claim, at most a batch and, for a callback topic, at most the room left in its window of
     * requests in flight; a slow receiver's topic then claims less and leaves its jobs ready in Redis.
     */
    private int takeSlots() {
        if (window == null) {
            return slots.take(parts.maxBatch());
        }
        int room = window.take(parts.maxBatch());
        int taken = slots.take(room);
        window.release(room - taken);
        return taken;
    }

    /** Counts a claim of {@code s} as no longer in flight; the caller holds {@code s}'s lock. */
    private void claimEnded(ShardClaims s) {
        s.claimsInFlight--;
        topicClaimsInFlight.decrementAndGet();
    }

    /**
     * Sends the shard's queued acks now unless a claim of the shard is in flight (its reply, {@link #onClaimed}, comes
     * back here), or one is coming: while the shard has ready jobs (the slots freed by its jobs start it,
     * {@link #onSlotsFreed(ShardClaims)}), they wait up to {@link #ACK_HOLD_MICROS} for it to carry them; while its
     * due-time timer fires within {@link #ACK_HOLD_FOR_TIMER_MICROS} (jobs coming due one after another, as at a steady
     * rate), up to that long. Called after a handler queued its ack, and at the end of each reply.
     */
    private void sendOrHoldAcks(ShardClaims s) {
        if (s.hasClaimInFlight()) {
            return;
        }
        long hold = 0;
        if (s.hasBacklog()) {
            hold = ACK_HOLD_MICROS;
        } else if (s.timerDueBy(parts.clock().nowMs() + ACK_HOLD_FOR_TIMER_MICROS / 1000 - 1)) {
            // The timer fires half a millisecond after its due time (arm), before the held acks' own timer.
            hold = ACK_HOLD_FOR_TIMER_MICROS;
        }
        if (hold > 0 && s.armAckTimer(parts.timer(), hold, () -> leases.flushAcks(topic, s.index))) {
            return;
        }
        leases.flushAcks(topic, s.index);
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
        sendOrHoldAcks(s);
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
            // The slots go back without being offered to the shards: their claims share the failed connection and
            // would fail at once too, each on this stack, each freeing slots for the next. When a lost connection
            // fails the claims in flight this runs on Lettuce's event loop, and that chain kept it busy for minutes,
            // so the connection's own reconnect never ran. The sweep (and slots freed later) claim again.
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
                            parts.sweepInterval().toMillis(),
                            RedisGateway.unwrap(error).toString());
                }
            }
            leases.flushAcks(topic, s.index);
            return;
        }
        parts.clock().sample(batch.serverNowMs(), sentNanos, received);
        if (!batch.dead().isEmpty()) {
            parts.runner().logReaped(topic, batch.dead());
        }
        for (ClaimBatch.Claimed job : batch.jobs()) {
            run(s, new JobContext(leases, topic, s.index, job));
        }
        ShardClaims.Again again;
        synchronized (s) {
            if (s.failing) {
                s.failing = false;
                log.info("claiming from topic {} shard {} works again", topic, s.index);
            }
            claimEnded(s);
            again = s.replied(sequence, batch.moreReady(), batch.capped());
        }
        if (batch.nextDueMs() >= 0) {
            // Relative to the server time in the reply, so the timer cannot fire before the job is due.
            long waitMs = batch.nextDueMs() - batch.serverNowMs();
            arm(s, batch.nextDueMs(), Math.max(waitMs, 1) - (received - sentNanos) / 2_000_000);
        }
        int unused = taken - batch.jobs().size();
        if (unused > 0) {
            // Offers them to the shards with ready jobs, this one among them; after claimEnded, as above.
            freeSlots(unused);
        }
        if (again.withoutSlots()) {
            claim(s, false);
        } else if (again.claim() || (batch.moreReady() && slots.hasFree())) {
            claim(s, true);
        }
        if (unused == 0 && shards.length > 1 && slots.hasFree()) {
            // Slots freed while this claim was out may have been left for it to offer (see claim).
            onSlotsFreed(null);
        }
        sendOrHoldAcks(s);
    }

    /** Runs a job on a handler thread, then frees its slot (a claim this starts carries its ack) and flushes acks. */
    private void run(ShardClaims s, JobContext job) {
        try {
            parts.runner().execute(() -> {
                boolean acked = false;
                try {
                    acked = parts.runner().run(job);
                } finally {
                    freeSlots(1, s);
                    if (acked) {
                        onAckQueued(s);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // A claim that raced with close(): hand the job back rather than strand it until its lease expires.
            parts.runner().handBack(job);
            freeSlots(1);
        }
    }

    /** Gives slots back and, unless the worker is closing, offers them to each of its topics. */
    private void freeSlots(int n) {
        freeSlots(n, null);
    }

    /**
     * Gives slots back and, unless the worker is closing, offers them to each of its topics, this one's first to
     * {@code from}, the shard whose finished job freed them (null for none).
     */
    private void freeSlots(int n, ShardClaims from) {
        if (window != null && n > 0) {
            window.release(n);
        }
        if (slots.release(n)) {
            for (TopicWorker w : parts.topicWorkers()) {
                w.onSlotsFreed(w == this ? from : null);
            }
        }
    }

    private void arm(ShardClaims s, long dueMs, long waitMs) {
        s.armTimer(parts.timer(), dueMs, Math.max(waitMs, 0) * 1000 + 500, () -> {
            s.timerFired();
            claim(s, true);
        });
    }

    void stop() {
        stopped = true;
        ScheduledFuture<?> sw = sweep;
        if (sw != null) {
            sw.cancel(false);
        }
        for (ShardClaims s : shards) {
            s.stop();
        }
    }

    void awaitNoClaimInFlight(Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        try {
            for (ShardClaims s : shards) {
                s.awaitNoClaimInFlight(deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
