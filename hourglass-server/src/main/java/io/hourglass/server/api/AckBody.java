package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST .../jobs/{id}/ack}.
 *
 * @param receipt the receipt of the delivery being acknowledged
 * @param result the job's result, any JSON value of at most 16 KiB as UTF-8 JSON text, kept with the job while its
 *     topic keeps completed jobs ({@code --completed-retention}); null or absent for none
 */
public record AckBody(
        @Schema(
                description = "the receipt of the delivery being acknowledged",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String receipt,

        @Schema(
                description = "the job's result, any JSON value of at most 16 KiB, kept with the job while completed"
                        + " jobs are kept (--completed-retention); absent for none")
        JsonNode result) {}
