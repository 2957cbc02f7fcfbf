package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.OnExpiry;
import io.hourglass.StorageFormat;
import java.net.URI;
import java.util.OptionalLong;

/**
 * A job record as stored in the {@code jobs} hash: an ASCII header
 * {@code due|failedAttempts|maxAttempts|leaseMs|backoff|callbackUrl|windowMs|} followed by
 * {@code originalDue|expiresAt|onExpiry|failureUrl|priority|deferrals|dispatchDeadlineMs}, a newline, then the payload
 * bytes. A field at its stored default ({@link #STORED_DEFAULT_MAX_ATTEMPTS}, {@link #STORED_DEFAULT_LEASE_MS}, 0
 * failed attempts, empty strings, an original due time equal to the due time, no expiry) is written empty and empty
 * fields at the end are left out, so a fresh job with defaults would store only {@code due\n} before its payload; a
 * schedule stores such a job bare, its payload alone, unless the payload begins with a digit or {@code '-'}
 * ({@link StorageFormat#isBare}): its due time is then its score while it waits and its receipt's while it is leased.
 * The Lua side of this format is {@code decode_job}/{@code encode_job} in {@code common.lua};
 * {@link StorageFormat#decode} reads it.
 *
 * <p>A delivery in progress is not part of the record: its receipt lives in the shard's {@code leases} hash, so a claim
 * and an ack leave the record as it is. {@code failedAttempts} counts the attempts that ended in failure (nacked, or
 * their lease expired); a hand-back or a reschedule of an ACTIVE job does not count.
 */
record JobRecord(
        long dueMs,
        int failedAttempts,
        int maxAttempts,
        long leaseMs,
        String backoff,
        String callbackUrl,
        byte[] payload,
        long originalDueMs,
        long expiresAtMs,
        OnExpiry onExpiry,
        String failureCallbackUrl,
        int priority,
        int deferrals,
        long dispatchDeadlineMs) {

    /** The maxAttempts an empty field stands for ({@link StorageFormat#STORED_DEFAULT_MAX_ATTEMPTS}). */
    public static final int STORED_DEFAULT_MAX_ATTEMPTS = StorageFormat.STORED_DEFAULT_MAX_ATTEMPTS;
    /** The lease in ms an empty field stands for ({@link StorageFormat#STORED_DEFAULT_LEASE_MS}). */
    public static final long STORED_DEFAULT_LEASE_MS = StorageFormat.STORED_DEFAULT_LEASE_MS;

    /**
     * Decodes a stored record with its header (the scripts hand a bare record to the client with the header it stands
     * for, but for a claim's); a malformed one is corrupt data, an {@link IllegalStateException}.
     */
    public static JobRecord decode(byte[] raw) {
        try {
            return of(StorageFormat.decode(raw));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * Decodes the record of a job a claim leased under {@code receipt}, which carries the due time of a bare record
     * ({@link StorageFormat#dueOfReceipt}).
     */
    public static JobRecord decodeLeased(byte[] raw, String receipt) {
        try {
            if (!StorageFormat.isBare(raw)) {
                return of(StorageFormat.decode(raw));
            }
            OptionalLong due = StorageFormat.dueOfReceipt(receipt);
            if (due.isEmpty()) {
                throw new IllegalArgumentException("a bare job record leased under a receipt without its due time");
            }
            return of(StorageFormat.decode(raw, due.getAsLong()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static JobRecord of(StorageFormat.StoredRecord r) {
        return new JobRecord(
                r.dueMs(),
                r.failedAttempts(),
                r.maxAttempts(),
                r.leaseMs(),
                r.backoff(),
                r.callbackUrl(),
                r.payload(),
                r.originalDueMs(),
                r.expiresAtMs(),
                r.onExpiry(),
                r.failureCallbackUrl(),
                r.priority(),
                r.deferrals(),
                r.dispatchDeadlineMs());
    }

    /**
     * The job's attempt as a user counts it: the one in progress while the job is ACTIVE, else the last one made.
     *
     * @param active whether the job is ACTIVE (has a delivery in progress)
     */
    public int attempt(boolean active) {
        return active ? failedAttempts + 1 : failedAttempts;
    }

    public Backoff backoffOrDefault(Backoff fallback) {
        return backoff.isEmpty() ? fallback : Backoff.parse(backoff);
    }

    public URI callbackUri() {
        return callbackUrl.isEmpty() ? null : URI.create(callbackUrl);
    }

    public Lane lane() {
        return callbackUrl.isEmpty() ? Lane.WORKER : Lane.CALLBACK;
    }
}
