package io.hourglass.examples.ordertimeout;

import java.math.BigDecimal;

/**
 * An order.
 *
 * @param id its id
 * @param amount what it costs
 * @param status where it is
 */
public record Order(String id, BigDecimal amount, Status status) {

    /** Where an order is. */
    public enum Status {
        /** Placed, waiting for its payment. */
        UNPAID,
        /** Paid in time. */
        PAID,
        /** Not paid within the payment window. */
        CLOSED
    }

    /**
     * @param status the new status
     * @return this order with that status
     */
    public Order with(Status status) {
        return new Order(id, amount, status);
    }
}
