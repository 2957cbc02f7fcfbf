package io.hourglass.examples.ordertimeout;

/**
 * The payload of an order's timeout job (stored as JSON through the application's Jackson mapper).
 *
 * @param orderId the order to close if it is still unpaid
 */
public record OrderTimeout(String orderId) {}
