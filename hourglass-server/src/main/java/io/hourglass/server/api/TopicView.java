package io.hourglass.server.api;

import io.hourglass.TopicOverview;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One topic as the operators' endpoints show it ({@code Topic} in the API's description): counts per state, whether it
 * is paused, how late its ready jobs are and when its next job falls due.
 *
 * @param topic the topic's name
 * @param scheduled jobs waiting for their due time
 * @param ready due jobs waiting for a worker
 * @param active jobs leased to a worker
 * @param dead dead letters
 * @param paused whether the topic is paused
 * @param latencyMs the age of the oldest READY job in ms (the Redis server's now minus its due time), 0 when none
 * @param nextDueAt the ISO-8601 due time of the earliest SCHEDULED job, or null when none is scheduled
 * @param deadLettersTrimmed dead letters deleted so far because the topic's dead letters exceeded their count or age
 *     limits ({@code --dead-letter-max-count}, {@code --dead-letter-max-age})
 * @param completed acked jobs still retained as COMPLETED ({@code --completed-retention})
 */
@Schema(name = "Topic", description = "A topic's counts per state, pause, latency and next due time")
public record TopicView(
        @Schema(description = "the topic") String topic,

        @Schema(description = "jobs waiting for their due time (SCHEDULED)")
        long scheduled,

        @Schema(description = "jobs due, waiting for a worker (READY)")
        long ready,

        @Schema(description = "jobs leased to a worker (ACTIVE)")
        long active,

        @Schema(description = "jobs in the dead letters (DEAD)")
        long dead,

        @Schema(description = "whether the topic is paused: no worker, callback or reservation is given its jobs")
        boolean paused,

        @Schema(description = "the age of the oldest READY job in ms, by the Redis server's clock; 0 when none")
        long latencyMs,

        @Schema(
                description = "ISO-8601 due time of the earliest SCHEDULED job; null when none is scheduled",
                nullable = true)
        String nextDueAt,

        @Schema(
                description = "dead letters deleted so far because the topic's dead letters exceeded their count or age"
                        + " limits (--dead-letter-max-count, --dead-letter-max-age); a total, never reset")
        long deadLettersTrimmed,

        @Schema(
                description = "acked jobs still retained as COMPLETED (--completed-retention); exact at the time of the"
                        + " read: a job whose retention ended is not counted")
        long completed) {

    static TopicView of(TopicOverview o) {
        return new TopicView(
                o.topic(),
                o.scheduled(),
                o.ready(),
                o.active(),
                o.dead(),
                o.paused(),
                o.latency().toMillis(),
                o.nextDueAt() == null ? null : o.nextDueAt().toString(),
                o.deadLettersTrimmed(),
                o.completed());
    }
}
