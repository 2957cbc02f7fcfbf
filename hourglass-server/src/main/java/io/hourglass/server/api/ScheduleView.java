package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * One recurring schedule as {@code /v1/schedules} shows it.
 *
 * @param name the schedule's name
 * @param topic the topic of the jobs it creates
 * @param cron the cron expression
 * @param zone the time zone of the cron fields
 * @param payload each job's payload, as JSON
 * @param callbackUrl the URL each job is POSTed to; only when it has one
 * @param maxAttempts each job's deliveries allowed; only when set (else the server's default)
 * @param leaseMs each delivery's lease; only when set (else the server's default)
 * @param misfirePolicy {@code fire_once} or {@code skip}
 * @param updatedAt ISO-8601 instant it was last put
 * @param lastTick ISO-8601 instant of the latest tick whose job was created, or null
 * @param nextFireTimes the next five fire times, ISO-8601 instants
 */
public record ScheduleView(
        @Schema(description = "the schedule's name") String name,

        @Schema(description = "the topic of the jobs it creates")
        String topic,

        @Schema(description = "the cron expression") String cron,

        @Schema(description = "the time zone of the cron fields")
        String zone,

        @Schema(description = "each job's payload, as JSON") JsonNode payload,

        @Schema(description = "the URL each job is POSTed to; only when it has one")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String callbackUrl,

        @Schema(description = "each job's deliveries allowed; only when set") @JsonInclude(JsonInclude.Include.NON_NULL)
        Integer maxAttempts,

        @Schema(description = "each delivery's lease, ms; only when set") @JsonInclude(JsonInclude.Include.NON_NULL)
        Long leaseMs,

        @Schema(description = "fire_once or skip") String misfirePolicy,

        @Schema(description = "ISO-8601 instant it was last put")
        String updatedAt,

        @Schema(description = "ISO-8601 instant of the latest tick whose job was created, or null")
        String lastTick,

        @Schema(description = "the next five fire times, ISO-8601 instants")
        List<String> nextFireTimes) {

    static ScheduleView of(ScheduleInfo info) {
        Schedule s = info.schedule();
        return new ScheduleView(
                s.name(),
                s.topic(),
                s.cron(),
                s.zone().getId(),
                Payloads.fromBytes(s.payload()),
                s.callbackUrl() == null ? null : s.callbackUrl().toString(),
                s.maxAttempts(),
                s.lease() == null ? null : s.lease().toMillis(),
                s.misfirePolicy().name().toLowerCase(Locale.ROOT),
                info.updatedAt().toString(),
                info.lastTick() == null ? null : info.lastTick().toString(),
                info.nextFireTimes().stream().map(Instant::toString).toList());
    }
}
