package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to a bulk delete of dead letters.
 *
 * @param deleted how many dead letters were deleted
 */
@Schema(name = "Deleted", description = "How many dead letters were deleted")
public record DeletedView(
        @Schema(description = "dead letters deleted") long deleted) {}
