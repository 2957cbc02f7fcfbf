package io.hourglass.internal;

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

    long newestReply;
    boolean failing;
    private ScheduledFuture<?> timer;
    private long timerDueMs = Long.MAX_VALUE;
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

    /** The due-time timer ran: the next due time may arm a new one. */
    synchronized void timerFired() {
        timer = null;
        timerDueMs = Long.MAX_VALUE;
    }

    /** Cancels the due-time timer and arms none from now on. */
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
