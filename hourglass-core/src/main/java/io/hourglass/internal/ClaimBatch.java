package io.hourglass.internal;

import java.util.List;

/**
 * The reply of {@code claim.lua} ({@link LeaseScripts#claimed}): the server time; the next due time (-1 when no job is
 * waiting for its due time, or when more jobs are ready than the claim took: the claim that takes the last of them
 * reports it); whether more jobs are ready; the outcomes of the acks the claim carried (in the order sent); the jobs
 * the claim moved to the dead letters (their lease expired on their last attempt, or they expired before delivery;
 * empty in most claims); how many dead letters the claim trimmed to the topic's limits (0 in most claims); the leased
 * jobs; and whether the topic's concurrency cap held ready jobs back (a place frees when a delivery of the shard ends;
 * a rate limit instead moves the next due time to the next token's).
 */
record ClaimBatch(
        long serverNowMs,
        long nextDueMs,
        boolean moreReady,
        List<String> ackOutcomes,
        List<Reaped> dead,
        List<Claimed> jobs,
        int deadLettersTrimmed,
        boolean capped) {

    /**
     * A job whose lease expired on its last attempt, or that expired before delivery, and its last error as stored
     * (e.g. "lease expired on attempt 3", or "expired").
     */
    record Reaped(String id, String error) {}

    /** One leased job: its record as stored, the receipt of this delivery and the lease deadline. */
    record Claimed(String id, JobRecord record, String receipt, long leaseUntilMs) {

        /** This delivery's attempt, from 1. */
        int attempt() {
            return record.attempt(true);
        }
    }
}
