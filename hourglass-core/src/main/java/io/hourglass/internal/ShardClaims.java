package io.hourglass.internal;

import java.util.concurrent.ScheduledFuture;

/**
 * The claim state of one shard of a {@link TopicWorker}'s topic: claims in flight, triggers that arrived meanwhile,
 * whether jobs are still ready, the due-time timer. Not thread-safe: the topic worker holds its lock.
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
    ScheduledFuture<?> timer;
    long timerDueMs = Long.MAX_VALUE;
    boolean failing;

    ShardClaims(int index) {
        this.index = index;
    }
}
