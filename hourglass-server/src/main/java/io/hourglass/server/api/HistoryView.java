package io.hourglass.server.api;

import io.hourglass.HistoryMinute;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A topic's jobs processed and failed per minute over the last 24 hours ({@code History} in the API's description).
 *
 * @param topic the topic
 * @param minutes the minutes that have a count, oldest first
 * @param expired the topic's jobs that expired before delivery, since the first ({@code Inspector.expired})
 */
@Schema(name = "History", description = "A topic's jobs processed and failed per minute over the last 24 hours")
public record HistoryView(
        @Schema(description = "the topic") String topic,

        @Schema(
                description = "the minutes of the last 24 hours (by the Redis server's clock) in which a job of the"
                        + " topic was acked or failed, oldest first; a minute without either is left out")
        List<Minute> minutes,

        @Schema(
                description =
                        "the topic's jobs that expired before delivery (dead-lettered or dropped), since the first")
        long expired) {

    static HistoryView of(String topic, List<HistoryMinute> minutes, long expired) {
        return new HistoryView(
                topic,
                minutes.stream()
                        .map(m -> new Minute(m.minute().toString(), m.processed(), m.failed()))
                        .toList(),
                expired);
    }

    /**
     * One minute of the history.
     *
     * @param minute the ISO-8601 start of the minute
     * @param processed jobs acked in that minute
     * @param failed attempts that failed in that minute (nacked, or their lease expired), and jobs that expired
     */
    @Schema(name = "HistoryMinute", description = "The jobs of one minute")
    public record Minute(
            @Schema(description = "ISO-8601 start of the minute, by the Redis server's clock")
            String minute,

            @Schema(description = "jobs acked in that minute")
            long processed,

            @Schema(
                    description = "attempts that failed in that minute: nacked, or their lease expired; and jobs that"
                            + " expired before delivery")
            long failed) {}
}
