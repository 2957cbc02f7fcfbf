package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The answer of {@code POST /v1/topics/{topic}/jobs:batch}: one outcome per job, in the order sent.
 *
 * @param results the outcomes
 */
public record BatchScheduleView(List<Item> results) {

    /**
     * One job's outcome, as the single schedule would have answered it.
     *
     * @param status 201 created or replaced, 200 kept, 409 the id exists, 400 or 413 the item was refused, 503 Redis
     *     could not be reached
     * @param job the job's place (201, 200); absent otherwise
     * @param error why the item was refused (4xx, 503); absent otherwise
     * @param ended with a 409 or 200 for an id reserved by a job that ended: how it ended; absent otherwise
     */
    public record Item(
            @Schema(
                    description = "201 created or replaced, 200 kept, 409 the id exists, 400 or 413 refused,"
                            + " 503 Redis could not be reached")
            int status,

            @Schema(description = "the job's place (201, 200)") @JsonInclude(JsonInclude.Include.NON_NULL)
            ScheduledJobView job,

            @Schema(description = "why the item was refused") @JsonInclude(JsonInclude.Include.NON_NULL)
            String error,

            @Schema(description = "ACKED, CANCELLED or DEAD, for an id reserved by a job that ended")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            String ended) {}
}
