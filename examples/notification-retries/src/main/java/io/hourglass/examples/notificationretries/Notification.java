package io.hourglass.examples.notificationretries;

/**
 * A notification: the payload of its Hourglass job (stored as JSON through the application's Jackson mapper) and the
 * body POSTed to the gateway.
 *
 * @param to the recipient, e.g. a phone number or an address
 * @param text what to tell them
 */
public record Notification(String to, String text) {}
