package io.hourglass;

import java.time.Instant;

/**
 * One job of a page that {@link Inspector#jobs} lists: what an operator needs to see of it, with the payload cut to a
 * preview so that a page stays small whatever the payloads' size.
 *
 * @param id the job's id; never null
 * @param state the state the page lists; never null
 * @param dueAt when the job is (or was last) due, by the Redis server's clock; never null
 * @param attempt deliveries so far, counting the one in progress when {@code ACTIVE} (the acked one when
 *     {@code COMPLETED}); 0 before the first
 * @param maxAttempts deliveries allowed before the job goes to the dead letters
 * @param lastError the error of the last failed attempt, or null if none failed
 * @param leaseUntil the lease deadline when {@code ACTIVE}, else null
 * @param diedAt the time of death when {@code DEAD}, else null
 * @param payloadBytes the payload's full size in bytes
 * @param payloadPreview the payload's first bytes, at most {@link Inspector#PREVIEW_BYTES}; never null (the array is
 *     the caller's to keep)
 * @param payloadPreviewText the preview decoded as UTF-8, or null when it is not valid UTF-8 (a multi-byte character
 *     cut at the preview's end is left out of the text, not counted as invalid)
 * @param priority the job's priority ({@link JobRequest#priority()})
 * @param completedAt when the job was acked, by the Redis server's clock, when {@code COMPLETED}; else null
 */
public record JobSummary(
        String id,
        JobState state,
        Instant dueAt,
        int attempt,
        int maxAttempts,
        String lastError,
        Instant leaseUntil,
        Instant diedAt,
        int payloadBytes,
        byte[] payloadPreview,
        String payloadPreviewText,
        int priority,
        Instant completedAt) {}
