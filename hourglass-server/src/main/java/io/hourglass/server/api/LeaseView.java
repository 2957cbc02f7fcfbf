package io.hourglass.server.api;

/**
 * The answer to an extend.
 *
 * @param leaseUntil the new ISO-8601 lease deadline
 */
public record LeaseView(String leaseUntil) {}
