package io.hourglass;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * A job as a {@link JobHandler} sees it during one delivery. Valid only while the handler runs; its methods are
 * thread-safe, so a handler may extend the lease from another thread.
 */
public interface Job {

    /** @return the job's id; never null */
    String id();

    /** @return the job's topic; never null */
    String topic();

    /** @return the payload bytes; never null (a copy is not made: do not modify it) */
    byte[] payload();

    /** @return the payload decoded as UTF-8 */
    String payloadAsString();

    /** @return this delivery's number, 1 for the first */
    int attempt();

    /** @return deliveries allowed before the job goes to the dead letters */
    int maxAttempts();

    /**
     * @return when this attempt fell due, by the Redis server's clock: the job's due time for its first attempt, a
     *     retry's own due time after a failure; never null
     */
    Instant dueAt();

    /**
     * @return when the job's producer made it due (its schedule or its last reschedule), by the Redis server's clock:
     *     unlike {@link #dueAt()}, the same for every attempt; never null. This default returns {@link #dueAt()}, for
     *     implementations outside Hourglass, such as test doubles.
     */
    default Instant originalDueAt() {
        return dueAt();
    }

    /**
     * @return the URL this job is POSTed to when it is a callback job ({@link JobRequest.Builder#callbackUrl}), as a
     *     callback handler needs it; null for a worker job, which is all an in-process handler ever sees
     */
    URI callbackUrl();

    /** @return this delivery's lease deadline, by the Redis server's clock, moved by {@link #extendLease} */
    Instant leaseUntil();

    /**
     * Extends the lease to {@code lease} from now (Redis's clock), for handlers that run longer than their lease.
     * Blocks for one Redis round trip.
     *
     * @param lease the new remaining lease, 1 ms to 24 h
     * @return the new lease deadline
     * @throws StaleReceiptException when this delivery's lease was lost (expired and reaped, cancelled, replaced)
     * @throws RedisUnavailableException when Redis did not answer
     * @throws IllegalArgumentException naming {@code lease} when out of range
     */
    Instant extendLease(Duration lease);
}
