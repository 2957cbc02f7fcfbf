package io.hourglass;

import io.hourglass.internal.HandlerThreads;
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
 * <p>With a signing secret, each request also carries {@code Hourglass-Signature: t=<epoch ms>,v1=<hex>}, where
 * {@code v1} is HMAC-SHA256 keyed with the secret's UTF-8 bytes over {@code <t>.<body>} (the timestamp as sent,
 * a dot, the raw body bytes), as Stripe and QStash sign webhooks. A receiver recomputes it, compares in constant
 * time, and rejects a timestamp more than a few minutes old (replays). See the README for a recipe.
 *
 * <p>Where requests may go is decided by the instance's callback allow-list
 * ({@link HourglassBuilder#callbackAllowList}), checked again at delivery after DNS resolution.
 *
 * @param concurrency requests in flight at once over all topics, 1 to 10000
 * @param timeout how long one request may take, connect to last byte; positive
 * @param contentType the {@code Content-Type} of the request body, e.g. {@code application/json}
 * @param signingSecret the HMAC key, at least 16 characters; null for unsigned requests
 * @param virtualThreads whether the requests are sent from virtual threads (Java 21 or later), so that many slow
 *     receivers hold no kernel thread each; as {@link WorkerOptions.Builder#virtualThreads(boolean)}
 */
public record CallbackOptions(
        int concurrency, Duration timeout, String contentType, String signingSecret, boolean virtualThreads) {
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
        if (signingSecret != null && signingSecret.length() < 16) {
            throw new IllegalArgumentException("signingSecret: must be at least 16 characters");
        }
        if (virtualThreads) {
            HandlerThreads.requireVirtualThreads("virtualThreads");
        }
    }

    /**
     * Options sent from platform threads.
     *
     * @param concurrency requests in flight at once over all topics, 1 to 10000
     * @param timeout how long one request may take, connect to last byte; positive
     * @param contentType the {@code Content-Type} of the request body
     * @param signingSecret the HMAC key, at least 16 characters; null for unsigned requests
     * @throws IllegalArgumentException naming the first field out of bounds
     */
    public CallbackOptions(int concurrency, Duration timeout, String contentType, String signingSecret) {
        this(concurrency, timeout, contentType, signingSecret, false);
    }

    /**
     * @param signingSecret the HMAC key, at least 16 characters; null for unsigned requests
     * @return a copy with this signing secret
     */
    public CallbackOptions withSigningSecret(String signingSecret) {
        return new CallbackOptions(concurrency, timeout, contentType, signingSecret, virtualThreads);
    }

    /**
     * @param concurrency requests in flight at once, 1 to 10000
     * @return a copy with this concurrency
     */
    public CallbackOptions withConcurrency(int concurrency) {
        return new CallbackOptions(concurrency, timeout, contentType, signingSecret, virtualThreads);
    }

    /**
     * @param timeout time allowed for one request; positive
     * @return a copy with this timeout
     */
    public CallbackOptions withTimeout(Duration timeout) {
        return new CallbackOptions(concurrency, timeout, contentType, signingSecret, virtualThreads);
    }

    /**
     * @param virtualThreads whether the requests are sent from virtual threads (Java 21 or later)
     * @return a copy with this choice
     * @throws IllegalArgumentException naming {@code virtualThreads} when true on a JVM without virtual threads
     */
    public CallbackOptions withVirtualThreads(boolean virtualThreads) {
        return new CallbackOptions(concurrency, timeout, contentType, signingSecret, virtualThreads);
    }

    @Override
    public String toString() {
        return "CallbackOptions[concurrency=" + concurrency + ", timeout=" + timeout + ", contentType=" + contentType
                + ", signed=" + (signingSecret != null) + ", virtualThreads=" + virtualThreads + "]";
    }

    /** @return the defaults: unsigned */
    public static CallbackOptions defaults() {
        return new CallbackOptions(DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, DEFAULT_CONTENT_TYPE, null);
    }
}
