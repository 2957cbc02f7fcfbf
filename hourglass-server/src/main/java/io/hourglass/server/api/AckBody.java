package io.hourglass.server.api;

/**
 * The body of {@code POST .../jobs/{id}/ack}.
 *
 * @param receipt the receipt of the delivery being acknowledged
 */
public record AckBody(String receipt) {}
