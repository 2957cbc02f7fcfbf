package io.hourglass.server.api;

import io.hourglass.JobSummary;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Base64;

/**
 * One job of a listing ({@code JobSummary} in the API's description), its payload cut to a preview so that a page stays
 * small whatever the payloads' size.
 *
 * @param id the job's id
 * @param state {@code SCHEDULED}, {@code READY}, {@code ACTIVE}, {@code DEAD} or {@code COMPLETED}
 * @param dueAt ISO-8601 time the job is (or was last) due
 * @param attempt deliveries so far, counting the one in progress when ACTIVE (the acked one when COMPLETED)
 * @param maxAttempts deliveries allowed before the job goes to the dead letters
 * @param lastError the error of the last failed attempt, or null
 * @param leaseUntil ISO-8601 lease deadline when ACTIVE, else null
 * @param diedAt ISO-8601 time of death when DEAD, else null
 * @param payloadBytes the payload's full size in bytes
 * @param payloadPreview the payload's first bytes (at most 256), as text or base64
 * @param payloadPreviewEncoding {@code utf-8} when the preview is the bytes' text, {@code base64} when they are not
 *     valid UTF-8
 * @param priority the job's priority, -5 to 5 (0 unless set)
 * @param completedAt ISO-8601 time the job was acked when COMPLETED, else null
 */
@Schema(name = "JobSummary", description = "One job of a listing, with a preview of its payload")
public record JobSummaryView(
        @Schema(description = "the job's id") String id,

        @Schema(
                description = "the state listed",
                allowableValues = {"SCHEDULED", "READY", "ACTIVE", "DEAD", "COMPLETED"})
        String state,

        @Schema(description = "ISO-8601 time the job is (or was last) due, by the Redis server's clock")
        String dueAt,

        @Schema(
                description = "deliveries so far, counting the one in progress when ACTIVE (the acked one when"
                        + " COMPLETED)")
        int attempt,

        @Schema(description = "deliveries allowed before the job goes to the dead letters")
        int maxAttempts,

        @Schema(description = "the error of the last failed attempt; null when none failed", nullable = true)
        String lastError,

        @Schema(description = "ISO-8601 lease deadline when ACTIVE, else null", nullable = true)
        String leaseUntil,

        @Schema(description = "ISO-8601 time of death when DEAD, else null", nullable = true)
        String diedAt,

        @Schema(description = "the payload's full size in bytes")
        int payloadBytes,

        @Schema(
                description = "the payload's first bytes (at most 256): their UTF-8 text, or base64 when they are"
                        + " not valid UTF-8 (see payloadPreviewEncoding); a character that the cut splits is left"
                        + " out of the text")
        String payloadPreview,

        @Schema(
                description = "how payloadPreview is written",
                allowableValues = {"utf-8", "base64"})
        String payloadPreviewEncoding,

        @Schema(description = "the job's priority, -5 to 5 (0 unless set); higher first among due jobs")
        int priority,

        @Schema(description = "ISO-8601 time the job was acked when COMPLETED, else null", nullable = true)
        String completedAt) {

    /** {@link #payloadPreviewEncoding} of a preview that is the payload's text. */
    static final String UTF_8 = "utf-8";
    /** {@link #payloadPreviewEncoding} of a preview that is not valid UTF-8. */
    static final String BASE64 = "base64";

    static JobSummaryView of(JobSummary j) {
        boolean text = j.payloadPreviewText() != null;
        return new JobSummaryView(
                j.id(),
                j.state().name(),
                j.dueAt().toString(),
                j.attempt(),
                j.maxAttempts(),
                j.lastError(),
                j.leaseUntil() == null ? null : j.leaseUntil().toString(),
                j.diedAt() == null ? null : j.diedAt().toString(),
                j.payloadBytes(),
                text ? j.payloadPreviewText() : Base64.getEncoder().encodeToString(j.payloadPreview()),
                text ? UTF_8 : BASE64,
                j.priority(),
                j.completedAt() == null ? null : j.completedAt().toString());
    }
}
