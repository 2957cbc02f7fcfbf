package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to a purge.
 *
 * @param purged how many jobs were deleted
 */
@Schema(name = "Purged", description = "How many jobs a purge deleted")
public record PurgedView(
        @Schema(description = "jobs deleted") long purged) {}
