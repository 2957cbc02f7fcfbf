package io.hourglass.history.jdbc;

import java.time.Instant;
import java.util.Objects;

/**
 * One archived completion: a job that ended, as the script that ended it recorded it.
 *
 * @param topic the job's topic; not null
 * @param shard the shard whose stream the event came from
 * @param eventId the event's id: its stream entry's id ({@code <ms>-<seq>}), then {@code /} and its place in the entry
 *     from 0 (an entry holds the events of one script call); just the entry's id for an entry of the earlier one-event
 *     format. With topic and shard it identifies the event
 * @param jobId the job's id; not null. A job id can appear more than once (a requeued dead letter that ended again)
 * @param outcome how the job ended; not null
 * @param attempts the deliveries the job had, the successful one included
 * @param maxAttempts the deliveries it was allowed
 * @param dueAt the due time of its last delivery (Redis server clock); not null
 * @param completedAt when it ended (Redis server clock); not null
 * @param lastError the last error text, or null when it never failed
 * @param callbackUrl the callback URL of a callback job, or null for a worker job
 * @param payload the payload bytes, or null when not kept (history payloads off, or larger than the limit); not copied
 * @param payloadBytes the payload's size in bytes, kept even when the payload is not
 */
public record HistoryEntry(
        String topic,
        int shard,
        String eventId,
        String jobId,
        HistoryOutcome outcome,
        int attempts,
        int maxAttempts,
        Instant dueAt,
        Instant completedAt,
        String lastError,
        String callbackUrl,
        byte[] payload,
        int payloadBytes) {

    /** @throws NullPointerException naming a required field that is null */
    public HistoryEntry {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(completedAt, "completedAt");
    }
}
