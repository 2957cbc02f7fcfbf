package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;

/**
 * The body of {@code POST .../jobs/{id}/extend}.
 *
 * @param receipt the receipt of the delivery whose lease to extend
 * @param leaseMs the new lease, from now
 */
public record ExtendBody(
        @Schema(
                description = "the receipt of the delivery whose lease to extend",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String receipt,

        @Schema(description = "the new lease, from now") Long leaseMs) {

    Duration lease() {
        if (leaseMs == null) {
            throw new IllegalArgumentException("leaseMs: required");
        }
        return Duration.ofMillis(leaseMs);
    }
}
