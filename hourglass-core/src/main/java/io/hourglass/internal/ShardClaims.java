package io.hourglass.internal;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The claim state of one shard of a {@link TopicWorker}'s topic: claims in flight, triggers that arrived meanwhile,
 * whether jobs are still ready, the due-time timer. The fields are guarded by this object's lock, which the topic
 * worker holds around them; the methods take it themselves.
 */
final class ShardClaims {
    final int index;
    int claimsInFlight;
    /** A trigger arrived while no further claim could be sent: claim again when one returns. */
    boolean claimAgain;
    /** ... and one of those triggers was the timer or the sweep, which claim even with no free slot. */
    boolean claimAgainWithoutSlots;
    /** The last reply said jobs were still ready (or a claim was skipped for want of a slot). */
    boolean backlog;
    /**
     * The newest reply said the topic's concurrency cap held ready jobs back: the shard is claimed again when one of
     * this worker's deliveries of it is acked (the claim carries the ack that frees a place), or by the sweep.
     */
    boolean capped;
    /** Numbers the claims started, so that only the newest reply (or skipped claim) sets {@link #backlog}. */
    long claimsSent;
    /**
     * Claims of the shard sent in its current turn for freed slots: the slots its own finished jobs free go back to it
     * while this is below {@link TopicWorker#TURN_CLAIMS}, then to the other shards with ready jobs in turn.
     */
    int turnClaims;

    long newestReply;
    boolean failing;
    private ScheduledFuture<?> timer;
    private long timerDueMs = Long.MAX_VALUE;
    /** Sends the acks held for a claim of the shard to carry, if none did by then; null when none is armed. */
    private ScheduledFuture<?> ackTimer;

    private boolean stopped;

    ShardClaims(int index) {
        this.index = index;
    }

    /** The triggers that arrived while claims of the shard were in flight, as a reply takes them. */
    record Again(boolean claim, boolean withoutSlots) {}

    /**
     * Takes the triggers that arrived while claims were in flight, and records the reply of claim number
     * {@code sequence}: only the newest reply says whether jobs are still ready, and whether the topic's concurrency
     * cap held them back. The caller holds this shard's lock.
     */
    Again replied(long sequence, boolean moreReady, boolean cappedNow) {
        Again again = new Again(claimAgain, claimAgainWithoutSlots);
        claimAgain = false;
        claimAgainWithoutSlots = false;
        if (sequence > newestReply) {
            newestReply = sequence;
            backlog = moreReady;
            capped = cappedNow;
        }
        return again;
    }

    /** Whether the shard's current turn for freed slots has claims left ({@link TopicWorker#TURN_CLAIMS}). */
    synchronized boolean hasTurnClaimsLeft() {
        return turnClaims < TopicWorker.TURN_CLAIMS;
    }

    synchronized boolean hasBacklog() {
        return backlog;
    }

    synchronized boolean hasClaimInFlight() {
        return claimsInFlight > 0;
    }

    /**
     * Arms the due-time timer to run {@code onDue} in {@code delayMicros}, unless one is armed for {@code dueMs} or
     * earlier or the shard was stopped; a later timer is replaced. {@code onDue} must call {@link #timerFired} first.
     */
    synchronized void armTimer(ScheduledExecutorService timers, long dueMs, long delayMicros, Runnable onDue) {
        if (stopped || (timer != null && timerDueMs <= dueMs && !timer.isDone())) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerDueMs = dueMs;
        timer = timers.schedule(onDue, delayMicros, TimeUnit.MICROSECONDS);
    }

    /**
     * Whether the due-time timer is armed for a job due at {@code dueByMs} (Redis server clock, ms) or earlier: a claim
     * of the shard is coming by then, unless every slot is busy when it fires.
     */
    synchronized boolean timerDueBy(long dueByMs) {
        return timer != null && timerDueMs <= dueByMs && !timer.isDone();
    }

    /** The due-time timer ran: the next due time may arm a new one. */
    synchronized void timerFired() {
        timer = null;
        timerDueMs = Long.MAX_VALUE;
    }

    /**
     * Arms the ack timer to run {@code sendAcks} in {@code delayMicros}, unless one is armed already (it sends these
     * acks too, at its own time, which the longest hold bounds) or the shard was stopped. Returns false when no timer
     * will send the acks, so that the caller sends them now: the shard was stopped or {@code timers} refused the task
     * (the instance is closing). Once the timer fires, the next held ack arms a new one.
     */
    synchronized boolean armAckTimer(ScheduledExecutorService timers, long delayMicros, Runnable sendAcks) {
        if (stopped) {
            return false;
        }
        if (ackTimer != null) {
            return true;
        }
        try {
            ackTimer = timers.schedule(
                    () -> {
                        synchronized (this) {
                            ackTimer = null;
                        }
                        sendAcks.run();
                    },
                    delayMicros,
                    TimeUnit.MICROSECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Cancels the due-time timer and arms none from now on. An armed ack timer is left to run: the worker's close sends
     * the held acks as well, and a second flush finds nothing.
     */
    synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel(false);
        }
    }

    /** Waits until no claim of this shard is in flight, or until {@code deadlineNanos} ({@link System#nanoTime}). */
    void awaitNoClaimInFlight(long deadlineNanos) throws InterruptedException {
        while (System.nanoTime() < deadlineNanos) {
            synchronized (this) {
                if (claimsInFlight == 0) {
                    return;
                }
            }
            Thread.sleep(5);
        }
    }
}
