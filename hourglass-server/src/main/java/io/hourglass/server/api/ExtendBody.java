package io.hourglass.server.api;

import java.time.Duration;

/**
 * The body of {@code POST .../jobs/{id}/extend}.
 *
 * @param receipt the receipt of the delivery whose lease to extend
 * @param leaseMs the new lease, from now
 */
public record ExtendBody(String receipt, Long leaseMs) {

    Duration lease() {
        if (leaseMs == null) {
            throw new IllegalArgumentException("leaseMs: required");
        }
        return Duration.ofMillis(leaseMs);
    }
}
