package io.hourglass;

/**
 * What happens to a job that reaches its expiry time ({@link JobRequest.Builder#expiresAt},
 * {@link JobRequest.Builder#ttl}) before it was delivered: it is never delivered after that, whatever attempts it has
 * left.
 */
public enum OnExpiry {
    /**
     * The job goes to the dead letters with the last error {@code expired}, is logged as a dead letter by the process
     * whose claim found it, and its failure callback ({@link JobRequest.Builder#failureCallbackUrl}), if any, is
     * POSTed. The default.
     */
    DEAD_LETTER,
    /**
     * The job is deleted, and its id reserved for its idempotency window as a deleted dead letter
     * ({@link ScheduleResult.Ended#DEAD}); no failure callback.
     */
    DROP
}
