package io.hourglass.server.api;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Reads the two ways the API gives a due time, {@code delayMs} and {@code runAt}, naming the field on error. */
final class DueTimes {
  private DueTimes() {}

  /** Checks that at most one of the two is given. */
  static void checkExclusive(Long delayMs, String runAt) {
    if (delayMs != null && runAt != null) {
      throw new IllegalArgumentException("delayMs: give either delayMs or runAt, not both");
    }
  }

  static Duration delay(long delayMs, String field) {
    if (delayMs < 0) {
      throw new IllegalArgumentException(field + ": must be zero or positive, got " + delayMs);
    }
    return Duration.ofMillis(delayMs);
  }

  /**
   * @param text an ISO-8601 instant ({@code 2030-01-01T00:00:00Z}) or date-time with offset
   * @return the instant
   */
  static Instant runAt(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException e2) {
        throw new IllegalArgumentException("runAt: must be an ISO-8601 instant such as 2030-01-01T00:00:00Z, got '"
            + text + "'");
      }
    }
  }
}
