package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.hourglass.ScheduleResult;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A job's place after a schedule or reschedule.
 *
 * @param id the job's id (the generated one when none was given)
 * @param topic the job's topic
 * @param state {@code SCHEDULED}, or {@code READY} when already due; absent when the id is reserved by a job that ended
 *     ({@code ended})
 * @param dueAt ISO-8601 due instant, by the Redis server's clock; absent with {@code state}
 * @param outcome {@code CREATED}, {@code REPLACED} or {@code KEPT}
 * @param ended how the earlier job with this id ended ({@code ACKED}, {@code CANCELLED}, {@code DEAD}) when the id was
 *     still inside its idempotency window; absent otherwise
 * @param endedAt ISO-8601 instant the earlier job ended; absent with {@code ended}
 */
public record ScheduledJobView(
        @Schema(description = "the job's id (the generated one when none was given)")
        String id,

        @Schema(description = "the job's topic") String topic,

        @Schema(description = "SCHEDULED, or READY when already due; absent when the id is reserved (ended)")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String state,

        @Schema(description = "ISO-8601 due instant, by the Redis server's clock; absent with state")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String dueAt,

        @Schema(description = "CREATED, REPLACED or KEPT") String outcome,

        @Schema(
                description = "ACKED, CANCELLED or DEAD: how the earlier job with this id ended, when the id was"
                        + " still inside its idempotency window (outcome KEPT); absent otherwise")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String ended,

        @Schema(description = "ISO-8601 instant the earlier job ended; absent with ended")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String endedAt) {

    static ScheduledJobView of(ScheduleResult r) {
        return new ScheduledJobView(
                r.id(),
                r.topic(),
                r.state() == null ? null : r.state().name(),
                r.dueAt() == null ? null : r.dueAt().toString(),
                r.outcome().name(),
                r.ended() == null ? null : r.ended().name(),
                r.endedAt() == null ? null : r.endedAt().toString());
    }
}
