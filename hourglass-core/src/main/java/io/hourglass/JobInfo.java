package io.hourglass;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * A snapshot of one job, as {@link Hourglass#get(String, String)} and {@link Hourglass#deadLetters} return it.
 *
 * @param id the job's id; never null
 * @param topic the job's topic; never null
 * @param state the job's state at the time of reading; never null
 * @param dueAt when the job is (or was last) due, by the Redis server's clock; never null
 * @param attempt deliveries so far, 0 before the first
 * @param maxAttempts deliveries allowed before the job goes to the dead letters
 * @param backoff the job's retry backoff; never null
 * @param lease the lease of each delivery; never null
 * @param callbackUrl the URL the job is POSTed to, or null for delivery to workers
 * @param payload the payload bytes; never null (the array is the caller's to keep)
 * @param lastError the error of the last failed attempt, or null if none failed
 * @param leaseUntil the lease deadline when {@code ACTIVE}, else null
 * @param expiresAt when the job expires unless delivered by then ({@link JobRequest.Builder#expiresAt}), or null for
 *     never
 * @param onExpiry what happens when it expires; never null
 * @param failureCallbackUrl the URL a failure notice is POSTed to when the job goes to the dead letters, or null
 * @param completedAt when the job was acked, by the Redis server's clock, when {@code COMPLETED}; else null
 * @param result the result its handler returned (at most {@link Hourglass#MAX_RESULT_BYTES}), when {@code COMPLETED}
 *     with one; else null (the array is the caller's to keep)
 * @param priority the job's priority, {@link JobRequest#MIN_PRIORITY} to {@link JobRequest#MAX_PRIORITY}; higher is
 *     claimed first among due jobs
 */
public record JobInfo(
        String id,
        String topic,
        JobState state,
        Instant dueAt,
        int attempt,
        int maxAttempts,
        Backoff backoff,
        Duration lease,
        URI callbackUrl,
        byte[] payload,
        String lastError,
        Instant leaseUntil,
        Instant expiresAt,
        OnExpiry onExpiry,
        URI failureCallbackUrl,
        Instant completedAt,
        byte[] result,
        int priority) {

    /** @return the payload decoded as UTF-8 */
    public String payloadAsString() {
        return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
    }
}
