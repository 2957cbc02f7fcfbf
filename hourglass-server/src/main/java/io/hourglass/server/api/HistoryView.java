package io.hourglass.server.api;

import io.hourglass.HistoryMinute;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A topic's jobs processed and failed per minute over the last 24 hours ({@code History} in the API's description).
 *
 * @param topic the topic
 * @param minutes the minutes that have a count, oldest first
 */
@Schema(name = "History", description = "A topic's jobs processed and failed per minute over the last 24 hours")
public record HistoryView(
        @Schema(description = "the topic") String topic,

        @Schema(
                description = "the minutes of the last 24 hours (by the Redis server's clock) in which a job of the"
                        + " topic was acked or failed, oldest first; a minute without either is left out")
        List<Minute> minutes) {

    static HistoryView of(String topic, List<HistoryMinute> minutes) {
        return new HistoryView(
                topic,
                minutes.stream()
                        .map(m -> new Minute(m.minute().toString(), m.processed(), m.failed()))
                        .toList());
    }

    /**
     * One minute of the history.
     *
     * @param minute the ISO-8601 start of the minute
     * @param processed jobs acked in that minute
     * @param failed attempts that failed in that minute (nacked, or their lease expired)
     */
    @Schema(name = "HistoryMinute", description = "The jobs of one minute")
    public record Minute(
            @Schema(description = "ISO-8601 start of the minute, by the Redis server's clock")
            String minute,

            @Schema(description = "jobs acked in that minute")
            long processed,

            @Schema(description = "attempts that failed in that minute: nacked, or their lease expired")
            long failed) {}
}
