package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Delivery;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One job handed to a pull worker by a reservation: it is leased to that worker until {@code leaseUntil}, and only
 * {@code receipt} can ack, nack or extend it.
 *
 * @param id the job's id
 * @param payload the payload, as JSON
 * @param attempt this delivery's number, 1 for the first
 * @param maxAttempts deliveries allowed before the job goes to the dead letters
 * @param receipt this delivery's receipt
 * @param leaseUntil ISO-8601 lease deadline
 * @param dueAt ISO-8601 instant the job was due
 */
public record DeliveryView(
        @Schema(description = "the job's id") String id,
        @Schema(description = "the payload, as JSON") JsonNode payload,

        @Schema(description = "this delivery's number, 1 for the first")
        int attempt,

        @Schema(description = "deliveries allowed before the job goes to the dead letters")
        int maxAttempts,

        @Schema(description = "this delivery's receipt") String receipt,
        @Schema(description = "ISO-8601 lease deadline") String leaseUntil,

        @Schema(description = "ISO-8601 instant the job was due")
        String dueAt) {

    /**
     * @throws Payloads.UndeliverablePayloadException when the payload nests too deep for the reply
     *     ({@link Payloads#forDelivery})
     */
    static DeliveryView of(Delivery d) {
        return new DeliveryView(
                d.id(),
                Payloads.forDelivery(d.payload()),
                d.attempt(),
                d.maxAttempts(),
                d.receipt(),
                d.leaseUntil().toString(),
                d.dueAt().toString());
    }
}
