package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.history.jdbc.HistoryEntry;
import io.hourglass.history.jdbc.HistoryPage;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One page of the job history ({@code HistoryPage} in the API's description), newest completion first.
 *
 * @param entries the entries
 * @param nextCursor the cursor of the next page, or null when this page is the last
 */
@Schema(name = "HistoryPage", description = "One page of the job history, newest completion first")
public record HistoryPageView(
        @Schema(description = "the entries, newest completion first")
        List<Entry> entries,

        @Schema(
                description = "pass it as cursor to read the next page; null when this page is the last",
                nullable = true)
        String nextCursor) {

    static HistoryPageView of(HistoryPage page) {
        return new HistoryPageView(page.entries().stream().map(Entry::of).toList(), page.nextCursor());
    }

    /**
     * One job that ended, as the script that ended it recorded it.
     *
     * @param topic the job's topic
     * @param id the job's id
     * @param outcome how it ended
     * @param attempts deliveries it had
     * @param maxAttempts deliveries it was allowed
     * @param dueAt ISO-8601 due time of its last delivery
     * @param completedAt ISO-8601 time it ended
     * @param lastError its last error, or null
     * @param callbackUrl its callback URL; only for a callback job
     * @param payload its payload as JSON; only when the history keeps payloads and it was small enough
     * @param payloadBytes its payload's size in bytes
     */
    @Schema(name = "HistoryEntry", description = "One job that ended, as the script that ended it recorded it")
    public record Entry(
            @Schema(description = "the job's topic") String topic,

            @Schema(description = "the job's id; an id can appear more than once (a requeued dead letter)")
            String id,

            @Schema(description = "how it ended: ACKED, DEAD, CANCELLED, …")
            String outcome,

            @Schema(description = "deliveries it had, the last included")
            int attempts,

            @Schema(description = "deliveries it was allowed")
            int maxAttempts,

            @Schema(description = "ISO-8601 due time of its last delivery, by the Redis server's clock")
            String dueAt,

            @Schema(description = "ISO-8601 time it ended, by the Redis server's clock")
            String completedAt,

            @Schema(description = "its last error, or null when it never failed", nullable = true)
            String lastError,

            @Schema(description = "its callback URL; only for a callback job")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            String callbackUrl,

            @Schema(description = "its payload, as JSON; only when the history keeps payloads and it was small enough")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            JsonNode payload,

            @Schema(description = "its payload's size in bytes, kept even when the payload is not")
            int payloadBytes) {

        static Entry of(HistoryEntry e) {
            return new Entry(
                    e.topic(),
                    e.jobId(),
                    e.outcome().name(),
                    e.attempts(),
                    e.maxAttempts(),
                    e.dueAt().toString(),
                    e.completedAt().toString(),
                    e.lastError(),
                    e.callbackUrl(),
                    e.payload() == null ? null : Payloads.fromBytes(e.payload()),
                    e.payloadBytes());
        }
    }
}
