package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;

/**
 * The body of {@code POST /v1/topics/{topic}/reservations}; every field is optional.
 *
 * @param max most jobs to claim, 1 to 1000 (default 1)
 * @param waitMs how long to wait for a job to come due when none is, 0 to 300000 ms (default 0)
 * @param leaseMs the lease of these deliveries (default: each job's own)
 */
public record ReservationBody(
        @Schema(description = "most jobs to claim, 1 to 1000 (default 1)")
        Integer max,

        @Schema(description = "how long to wait for a job to come due when none is, 0 to 300000 ms (default 0)")
        Long waitMs,

        @Schema(description = "the lease of these deliveries (default: each job's own)")
        Long leaseMs) {
    /** Longest long poll: 5 minutes. */
    static final long MAX_WAIT_MS = 300_000;

    int maxOrDefault() {
        int n = max == null ? 1 : max;
        if (n < 1 || n > 1000) {
            throw new IllegalArgumentException("max: must be between 1 and 1000, got " + n);
        }
        return n;
    }

    Duration waitOrDefault() {
        long ms = waitMs == null ? 0 : waitMs;
        if (ms < 0 || ms > MAX_WAIT_MS) {
            throw new IllegalArgumentException("waitMs: must be between 0 and " + MAX_WAIT_MS + ", got " + ms);
        }
        return Duration.ofMillis(ms);
    }

    Duration leaseOrNull() {
        return leaseMs == null ? null : Duration.ofMillis(leaseMs);
    }
}
