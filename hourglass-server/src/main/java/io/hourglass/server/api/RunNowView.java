package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer to a run now.
 *
 * @param id the job's id
 * @param outcome {@code MADE_READY} (it was SCHEDULED, it is due now) or {@code ALREADY_READY} (left as it was)
 */
@Schema(name = "RunNow", description = "What a run now did")
public record RunNowView(
        @Schema(description = "the job's id") String id,

        @Schema(
                description = "MADE_READY: it was SCHEDULED and is due now; ALREADY_READY: it was READY and keeps its"
                        + " place",
                allowableValues = {"MADE_READY", "ALREADY_READY"})
        String outcome) {}
