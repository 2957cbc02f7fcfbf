package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * The server's limits on what a request may ask for, checked before anything reaches Redis, with messages in the API's
 * terms (milliseconds, JSON bytes). The library checks the same limits again.
 *
 * @param maxPayloadBytes the largest payload, in bytes of its JSON text
 * @param maxDelayMs the longest delay, or distance of {@code runAt} ahead, in milliseconds
 * @param maxDispatchDeadlineMs the longest {@code dispatchDeadlineMs}: the server's callback delivery cuts a job's
 *     longer deadline to it ({@code hourglass.callback-delivery.max-dispatch-deadline})
 */
public record RequestLimits(int maxPayloadBytes, long maxDelayMs, long maxDispatchDeadlineMs) {
    /** Room in a request body for the fields around the payload: 64 KiB. */
    public static final int BODY_OVERHEAD_BYTES = 64 << 10;
    /** Most steps in a {@code backoffMs} list. */
    static final int MAX_BACKOFF_STEPS = 100;

    /** @return the largest request body accepted: the largest payload plus {@value #BODY_OVERHEAD_BYTES} bytes */
    public long maxBodyBytes() {
        return (long) maxPayloadBytes + BODY_OVERHEAD_BYTES;
    }

    /**
     * @param payload any JSON value
     * @return its JSON text, as stored
     * @throws PayloadTooLargeException when it is longer than {@link #maxPayloadBytes}
     * @throws IllegalArgumentException naming {@code payload} when it nests deeper than {@link Payloads#MAX_DEPTH}
     */
    byte[] payload(JsonNode payload) {
        byte[] bytes = Payloads.toBytes(payload);
        if (bytes.length > maxPayloadBytes) {
            throw new PayloadTooLargeException("payload: " + bytes.length + " bytes of JSON is more than the limit of "
                    + maxPayloadBytes + " bytes");
        }
        return bytes;
    }

    /**
     * @param ms a delay in milliseconds
     * @param field the field it was read from
     * @return the delay
     * @throws IllegalArgumentException naming the field when it is negative or above {@link #maxDelayMs}
     */
    Duration delay(long ms, String field) {
        if (ms < 0 || ms > maxDelayMs) {
            throw new IllegalArgumentException(field + ": must be between 0 and " + maxDelayMs + " ms, got " + ms);
        }
        return Duration.ofMillis(ms);
    }

    /**
     * @param ms a job's dispatch deadline in milliseconds
     * @return the deadline
     * @throws IllegalArgumentException naming {@code dispatchDeadlineMs} when it is below 1 or above
     *     {@link #maxDispatchDeadlineMs}
     */
    Duration dispatchDeadline(long ms) {
        if (ms < 1 || ms > maxDispatchDeadlineMs) {
            throw new IllegalArgumentException(
                    "dispatchDeadlineMs: must be between 1 and " + maxDispatchDeadlineMs + " ms, got " + ms);
        }
        return Duration.ofMillis(ms);
    }

    /**
     * @param text an ISO-8601 instant; in the past means due now
     * @return the instant
     * @throws IllegalArgumentException naming {@code runAt} when it is malformed, before 1970 or more than
     *     {@link #maxDelayMs} ahead
     */
    Instant runAt(String text) {
        Instant at = DueTimes.runAt(text);
        if (at.toEpochMilli() - System.currentTimeMillis() > maxDelayMs) {
            throw new IllegalArgumentException(
                    "runAt: must be at most " + maxDelayMs + " ms ahead, got '" + text + "'");
        }
        return at;
    }
}
