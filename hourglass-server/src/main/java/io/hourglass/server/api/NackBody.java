package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;

/**
 * The body of {@code POST .../jobs/{id}/nack}.
 *
 * @param receipt the receipt of the delivery that failed
 * @param error what went wrong, kept as the job's {@code lastError}
 * @param retryDelayMs the delay before the retry, or null for the job's backoff
 */
public record NackBody(
        @Schema(description = "the receipt of the delivery that failed", requiredMode = Schema.RequiredMode.REQUIRED)
        String receipt,

        @Schema(description = "what went wrong, kept as the job's lastError")
        String error,

        @Schema(description = "the delay before the retry, or null for the job's backoff")
        Long retryDelayMs) {

    Duration retryDelayOrNull(RequestLimits limits) {
        return retryDelayMs == null ? null : limits.delay(retryDelayMs, "retryDelayMs");
    }
}
