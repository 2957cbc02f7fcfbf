package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to a bulk requeue of dead letters.
 *
 * @param requeued how many dead letters went back to READY
 */
@Schema(name = "Requeued", description = "How many dead letters were requeued")
public record RequeuedView(
        @Schema(description = "dead letters put back to READY")
        long requeued) {}
