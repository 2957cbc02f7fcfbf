package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to an extend.
 *
 * @param leaseUntil the new ISO-8601 lease deadline
 */
public record LeaseView(
        @Schema(description = "the new ISO-8601 lease deadline")
        String leaseUntil) {}
