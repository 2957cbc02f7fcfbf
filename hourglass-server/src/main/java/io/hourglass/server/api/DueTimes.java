package io.hourglass.server.api;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Reads the two ways the API gives a due time, {@code delayMs} and {@code runAt}, naming the field on error. */
final class DueTimes {
    /** Latest instant accepted, so that every instant fits epoch milliseconds. */
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private DueTimes() {}

    /** Checks that at most one of the two is given. */
    static void checkExclusive(Long delayMs, String runAt) {
        if (delayMs != null && runAt != null) {
            throw new IllegalArgumentException("delayMs: give either delayMs or runAt, not both");
        }
    }

    /**
     * @param text an ISO-8601 instant ({@code 2030-01-01T00:00:00Z}) or date-time with offset, from 1970 to 9999
     * @return the instant
     */
    static Instant runAt(String text) {
        return instant(text, "runAt");
    }

    /**
     * @param text an ISO-8601 instant or date-time with offset, from 1970 to 9999
     * @param field the field's name for the error
     * @return the instant
     */
    static Instant instant(String text, String field) {
        Instant at;
        try {
            at = Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                at = OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException(
                        field + ": must be an ISO-8601 instant such as 2030-01-01T00:00:00Z, got '" + text + "'");
            }
        }
        if (at.isBefore(Instant.EPOCH) || at.isAfter(LATEST)) {
            throw new IllegalArgumentException(
                    field + ": must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z," + " got '" + text + "'");
        }
        return at;
    }
}
