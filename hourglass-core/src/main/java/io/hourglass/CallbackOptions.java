package io.hourglass;

import java.time.Duration;

/**
 * How {@link Hourglass#startCallbackDelivery(CallbackOptions)} POSTs callback jobs. Immutable and thread-safe.
 *
 * <p>Each due job that has a callback URL is POSTed there with its payload as the body and the headers
 * {@code Hourglass-Job-Id}, {@code Hourglass-Topic}, {@code Hourglass-Attempt} and {@code Hourglass-Due-At}
 * (ISO-8601). A 2xx answer acks the job; any other answer, a connection failure or a timeout is a failed attempt,
 * retried on the job's backoff and dead-lettered after its last attempt, as hosted callback queues (Cloud Tasks,
 * QStash) do.
 *
 * @param concurrency requests in flight at once over all topics, 1 to 10000
 * @param timeout how long one request may take, connect to last byte; positive
 * @param contentType the {@code Content-Type} of the request body, e.g. {@code application/json}
 */
public record CallbackOptions(int concurrency, Duration timeout, String contentType) {
  /** Requests in flight at once: {@value}. */
  public static final int DEFAULT_CONCURRENCY = 32;
  /** Time allowed for one request: 10 s. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  /** Body type: {@value}. */
  public static final String DEFAULT_CONTENT_TYPE = "application/json";

  /** Checks the bounds. */
  public CallbackOptions {
    if (concurrency < 1 || concurrency > 10_000) {
      throw new IllegalArgumentException("concurrency: must be between 1 and 10000, got " + concurrency);
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout: must be positive, got " + timeout);
    }
    if (contentType == null || contentType.isBlank()) {
      throw new IllegalArgumentException("contentType: must not be blank");
    }
  }

  /** @return the defaults */
  public static CallbackOptions defaults() {
    return new CallbackOptions(DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, DEFAULT_CONTENT_TYPE);
  }
}
