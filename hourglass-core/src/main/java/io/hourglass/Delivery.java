package io.hourglass;

import java.time.Instant;

/**
 * One delivery of a job to a pull worker ({@link Hourglass#reserve}): the job is {@code ACTIVE} and leased to the
 * caller until {@code leaseUntil}; only {@code receipt} can ack, nack or extend it.
 *
 * @param topic the job's topic; never null
 * @param id the job's id; never null
 * @param payload the payload bytes; never null
 * @param attempt this delivery's number, 1 for the first
 * @param maxAttempts deliveries allowed before the job goes to the dead letters
 * @param dueAt when the job was due, by the Redis server's clock; never null
 * @param receipt this delivery's receipt token, opaque; never null
 * @param leaseUntil the lease deadline, by the Redis server's clock; never null
 */
public record Delivery(
        String topic,
        String id,
        byte[] payload,
        int attempt,
        int maxAttempts,
        Instant dueAt,
        String receipt,
        Instant leaseUntil) {

    /** @return the payload decoded as UTF-8 */
    public String payloadAsString() {
        return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
    }
}
