package io.hourglass.server.auth;

import java.util.Locale;

/**
 * What an API token may do in its topics. {@link #ADMIN} includes the others.
 *
 * <ul>
 *   <li>{@link #PRODUCE}: schedule, read, reschedule and cancel jobs;
 *   <li>{@link #CONSUME}: reserve jobs, ack, nack and extend deliveries, read jobs;
 *   <li>{@link #METRICS}: {@code GET /metrics}, the Prometheus scrape, which shows every topic's meters whatever topics
 *       the token names;
 *   <li>{@link #ADMIN}: topic counts and listings, dead letters (list, requeue, delete), and everything else.
 * </ul>
 */
public enum Right {
    /** Schedule, read, reschedule and cancel jobs. */
    PRODUCE,
    /** Reserve jobs; ack, nack and extend deliveries; read jobs. */
    CONSUME,
    /** Everything, including topic listings and dead letters. */
    ADMIN,
    /** Scrape {@code GET /metrics}: every topic's meters, whatever topics the token names. */
    METRICS;

    /** @return the name used in tokens files: {@code produce}, {@code consume}, {@code admin} or {@code metrics} */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param name {@code produce}, {@code consume}, {@code admin} or {@code metrics}
     * @param field where the name was read, for the error message
     * @return the right
     * @throws IllegalArgumentException naming {@code field} when the name is none of them
     */
    static Right named(String name, String field) {
        for (Right r : values()) {
            if (r.jsonName().equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException(field + ": must be produce, consume, admin or metrics, got '" + name + "'");
    }
}
