package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.JobInfo;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Locale;

/**
 * One job as {@code GET /v1/topics/{topic}/jobs/{id}} and the dead-letter listing show it.
 *
 * @param id the job's id
 * @param topic the job's topic
 * @param state {@code SCHEDULED}, {@code READY}, {@code ACTIVE}, {@code DEAD} or {@code COMPLETED} (acked, kept while
 *     completed jobs are kept)
 * @param dueAt ISO-8601 instant the job is (or was last) due
 * @param attempt deliveries so far
 * @param maxAttempts deliveries allowed
 * @param payload the payload, as JSON
 * @param lastError the error of the last failed attempt, or null
 * @param leaseUntil the lease deadline; only when {@code ACTIVE}
 * @param callbackUrl the callback URL; only when the job has one
 * @param expiresAt ISO-8601 instant the job expires unless delivered by then; only when it has an expiry
 * @param onExpiry {@code dead_letter} or {@code drop}; only when it has an expiry
 * @param failureCallbackUrl the failure callback URL; only when the job has one
 * @param completedAt ISO-8601 instant the job was acked; only when {@code COMPLETED}
 * @param result the result its ack gave, as JSON; only when {@code COMPLETED} with one
 * @param priority the job's priority, -5 to 5 (0 unless set)
 */
public record JobView(
        @Schema(description = "the job's id") String id,
        @Schema(description = "the job's topic") String topic,

        @Schema(description = "SCHEDULED, READY, ACTIVE, DEAD or COMPLETED (acked, kept while completed jobs are kept)")
        String state,

        @Schema(description = "ISO-8601 instant the job is (or was last) due")
        String dueAt,

        @Schema(description = "deliveries so far") int attempt,
        @Schema(description = "deliveries allowed") int maxAttempts,
        @Schema(description = "the payload, as JSON") JsonNode payload,

        @Schema(description = "the error of the last failed attempt, or null")
        String lastError,

        @Schema(description = "the lease deadline; only when ACTIVE") @JsonInclude(JsonInclude.Include.NON_NULL)
        String leaseUntil,

        @Schema(description = "the callback URL; only when the job has one") @JsonInclude(JsonInclude.Include.NON_NULL)
        String callbackUrl,

        @Schema(description = "when the job expires unless delivered by then; only when it has an expiry")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String expiresAt,

        @Schema(description = "dead_letter or drop: what happens when it expires; only when it has an expiry")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String onExpiry,

        @Schema(description = "the failure callback URL; only when the job has one")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String failureCallbackUrl,

        @Schema(description = "ISO-8601 instant the job was acked; only when COMPLETED")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String completedAt,

        @Schema(description = "the result its ack gave, as JSON; only when COMPLETED with one")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        JsonNode result,

        @Schema(description = "the job's priority, -5 to 5 (0 unless set); higher first among due jobs")
        int priority) {

    static JobView of(JobInfo j) {
        return new JobView(
                j.id(),
                j.topic(),
                j.state().name(),
                j.dueAt().toString(),
                j.attempt(),
                j.maxAttempts(),
                Payloads.fromBytes(j.payload()),
                j.lastError(),
                j.leaseUntil() == null ? null : j.leaseUntil().toString(),
                j.callbackUrl() == null ? null : j.callbackUrl().toString(),
                j.expiresAt() == null ? null : j.expiresAt().toString(),
                j.expiresAt() == null ? null : j.onExpiry().name().toLowerCase(Locale.ROOT),
                j.failureCallbackUrl() == null ? null : j.failureCallbackUrl().toString(),
                j.completedAt() == null ? null : j.completedAt().toString(),
                j.result() == null ? null : Payloads.fromBytes(j.result()),
                j.priority());
    }
}
