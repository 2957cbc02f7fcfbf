package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /v1/topics/{topic}/jobs/{id}/reschedule}: exactly one of the two.
 *
 * @param delayMs due this many milliseconds from now (Redis's clock)
 * @param runAt due at this ISO-8601 instant
 */
public record RescheduleBody(
        @Schema(description = "due this many milliseconds from now (Redis's clock)")
        Long delayMs,

        @Schema(description = "due at this ISO-8601 instant")
        String runAt) {

    /** @throws IllegalArgumentException naming the field when neither or both are given, or one is malformed */
    void check() {
        DueTimes.checkExclusive(delayMs, runAt);
        if (delayMs == null && runAt == null) {
            throw new IllegalArgumentException("delayMs: give either delayMs or runAt");
        }
    }
}
