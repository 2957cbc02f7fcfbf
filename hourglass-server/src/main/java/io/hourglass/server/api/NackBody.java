package io.hourglass.server.api;

import java.time.Duration;

/**
 * The body of {@code POST .../jobs/{id}/nack}.
 *
 * @param receipt the receipt of the delivery that failed
 * @param error what went wrong, kept as the job's {@code lastError}
 * @param retryDelayMs the delay before the retry, or null for the job's backoff
 */
public record NackBody(String receipt, String error, Long retryDelayMs) {

    Duration retryDelayOrNull(RequestLimits limits) {
        return retryDelayMs == null ? null : limits.delay(retryDelayMs, "retryDelayMs");
    }
}
