package io.hourglass.server.api;

import io.hourglass.ScheduleResult;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A job's place after a schedule or reschedule.
 *
 * @param id the job's id (the generated one when none was given)
 * @param topic the job's topic
 * @param state {@code SCHEDULED}, or {@code READY} when already due
 * @param dueAt ISO-8601 due instant, by the Redis server's clock
 * @param outcome {@code CREATED}, {@code REPLACED} or {@code KEPT}
 */
public record ScheduledJobView(
        @Schema(description = "the job's id (the generated one when none was given)")
        String id,

        @Schema(description = "the job's topic") String topic,

        @Schema(description = "SCHEDULED, or READY when already due")
        String state,

        @Schema(description = "ISO-8601 due instant, by the Redis server's clock")
        String dueAt,

        @Schema(description = "CREATED, REPLACED or KEPT") String outcome) {

    static ScheduledJobView of(ScheduleResult r) {
        return new ScheduledJobView(
                r.id(),
                r.topic(),
                r.state().name(),
                r.dueAt().toString(),
                r.outcome().name());
    }
}
