package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST .../jobs/{id}/ack}.
 *
 * @param receipt the receipt of the delivery being acknowledged
 */
public record AckBody(
        @Schema(
                description = "the receipt of the delivery being acknowledged",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String receipt) {}
