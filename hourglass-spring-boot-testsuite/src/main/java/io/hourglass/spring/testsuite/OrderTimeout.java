package io.hourglass.spring.testsuite;

/**
 * A typed payload of the suites.
 *
 * @param orderId the order
 * @param reason why it times out
 */
public record OrderTimeout(long orderId, String reason) {}
