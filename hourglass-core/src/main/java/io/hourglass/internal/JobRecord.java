package io.hourglass.internal;

import io.hourglass.Backoff;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A job record as stored in the {@code jobs} hash: an ASCII header
 * {@code due|failedAttempts|maxAttempts|leaseMs|backoff|callbackUrl}, a newline, then the payload bytes. A field at
 * its stored default ({@link #STORED_DEFAULT_MAX_ATTEMPTS}, {@link #STORED_DEFAULT_LEASE_MS}, 0 failed attempts, empty
 * strings) is written empty and empty fields at the end are left out, so a fresh job with defaults stores only
 * {@code due\n} before its payload. The Lua side of this format is {@code decode_job}/{@code encode_job} in
 * {@code common.lua}.
 *
 * <p>A delivery in progress is not part of the record: its receipt lives in the shard's {@code leases} hash, so a
 * claim and an ack leave the record as it is. {@code failedAttempts} counts the attempts that ended in failure
 * (nacked, or their lease expired); a hand-back or a reschedule of an ACTIVE job does not count.
 */
public record JobRecord(
        long dueMs,
        int failedAttempts,
        int maxAttempts,
        long leaseMs,
        String backoff,
        String callbackUrl,
        byte[] payload) {

    /**
     * The maxAttempts an empty field stands for. Part of the stored format, so it never changes with the builder's
     * defaults (it equals {@code HourglassBuilder.DEFAULT_MAX_ATTEMPTS} today, which keeps default records short).
     */
    public static final int STORED_DEFAULT_MAX_ATTEMPTS = 10;
    /** The lease in ms an empty field stands for; part of the stored format, like the above. */
    public static final long STORED_DEFAULT_LEASE_MS = 30_000;

    private static final int FIELDS = 6;

    public static JobRecord decode(byte[] raw) {
        int nl = 0;
        while (nl < raw.length && raw[nl] != '\n') {
            nl++;
        }
        if (nl == raw.length) {
            throw new IllegalStateException("job record without a header line");
        }
        String[] given = new String(raw, 0, nl, StandardCharsets.US_ASCII).split("\\|", -1);
        if (given.length > FIELDS) {
            throw new IllegalStateException("job record header has " + given.length + " fields, at most " + FIELDS);
        }
        String[] f = Arrays.copyOf(given, FIELDS);
        return new JobRecord(
                Long.parseLong(f[0]),
                (int) number(f[1], 0),
                (int) number(f[2], STORED_DEFAULT_MAX_ATTEMPTS),
                number(f[3], STORED_DEFAULT_LEASE_MS),
                text(f[4]),
                text(f[5]),
                Arrays.copyOfRange(raw, nl + 1, raw.length));
    }

    /**
     * The job's attempt as a user counts it: the one in progress while the job is ACTIVE, else the last one made.
     *
     * @param active whether the job is ACTIVE (has a delivery in progress)
     */
    public int attempt(boolean active) {
        return active ? failedAttempts + 1 : failedAttempts;
    }

    private static long number(String field, long storedDefault) {
        return field == null || field.isEmpty() ? storedDefault : Long.parseLong(field);
    }

    private static String text(String field) {
        return field == null ? "" : field;
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
