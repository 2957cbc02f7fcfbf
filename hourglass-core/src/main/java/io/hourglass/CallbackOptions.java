package io.hourglass;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link Hourglass#startCallbackDelivery(CallbackOptions)} POSTs callback jobs. Immutable and thread-safe; start
 * from {@link #defaults()} or {@link #builder()}, change a copy with {@link #mutate()}, as with {@link WorkerOptions}.
 *
 * <p>Each due job that has a callback URL is POSTed there over HTTP/1.1 with its payload as the body and the headers
 * {@code Hourglass-Job-Id}, {@code Hourglass-Topic}, {@code Hourglass-Attempt}, {@code Hourglass-Due-At} (ISO-8601, the
 * job's original due time: when its producer scheduled or last rescheduled it for, the same on every attempt) and
 * {@code Hourglass-Attempt-Due-At} (ISO-8601, when this attempt fell due: the original due time for the first attempt,
 * the retry's due time after a failure). A 2xx answer acks the job; any other answer, a connection failure or a timeout
 * is a failed attempt, retried on the job's backoff and dead-lettered after its last attempt, as hosted callback queues
 * (Cloud Tasks, QStash) do. The job's last error then says only {@code callback failed: HTTP <status>}, {@code callback
 * failed: timed out}, {@code callback failed: no HTTP answer} or {@code callback not sent: <why>}: never the receiver's
 * status text, headers or body. Before a request is sent, its job's lease is extended to cover the whole request, the
 * {@link #timeout()} plus 2 s, when less of it is left (the request is not sent when Redis refuses or cannot be
 * reached), and it is extended further while the request runs; so a receiver slower than the lease (but within the
 * timeout) gets the job once, even when this process stalls for seconds. A dispatcher that crashes mid-request leaves
 * the job to that cover, not to its own lease.
 *
 * <p><b>Polite callbacks.</b> A receiver that answers {@code 429} or {@code 503} with {@code Retry-After} (seconds, or
 * an HTTP date) has the job retried after that time, capped to {@link #MAX_RETRY_AFTER}, instead of after its backoff,
 * and no attempt is charged: up to {@link #maxDeferrals()} times per job, after which such an answer is a failed
 * attempt like any other (retried no sooner than the {@code Retry-After}). Each {@code 429} or {@code 503} also slows
 * the topic down in this dispatcher: the topic's requests in flight are held to a window that halves on such an answer
 * (once per window's worth of requests) and grows by one request per window of 2xx answers, up to
 * {@link #concurrency()} (additive increase, multiplicative decrease, as TCP does), so a receiver that keeps answering
 * {@code 429} gets about as many requests at once as it can take. A job's own
 * {@link JobRequest.Builder#dispatchDeadline dispatch deadline} replaces {@link #timeout()} for its requests, up to
 * {@link #maxDispatchDeadline()}.
 *
 * <p>With a signing secret, each request also carries {@code Hourglass-Signature: t=<epoch ms>,v2=<hex>}, where
 * {@code v2} is HMAC-SHA256 keyed with the secret's UTF-8 bytes over the lines {@code <t>}, topic, job id, attempt,
 * callback URL and the body's SHA-256 in hex, joined by {@code \n}; with a {@linkplain Builder#nextSigningSecret next
 * secret} too, a second {@code v2=} follows, signed with it, so that receivers can move to the next secret before the
 * current one is retired. A receiver recomputes the signature, compares in constant time, accepts any {@code v2} that
 * matches one of its secrets, and rejects a timestamp more than a few minutes old. SECURITY.md has the exact format and
 * verifiers in Java, Python and Node.
 *
 * <p>A failure notice ({@link JobRequest.Builder#failureCallbackUrl}) is a callback job like any other: its id is the
 * dead job's id followed by {@code :failure} and its body the JSON failure report, sent, signed and retried as above.
 *
 * <p>Where requests may go is decided by the instance's callback allow-list
 * ({@link HourglassBuilder#callbackAllowList}; by default every public address, no internal one), checked again on
 * every connection, after DNS resolution, against the addresses then connected to.
 */
public final class CallbackOptions {
    /** Requests in flight at once: {@value}. */
    public static final int DEFAULT_CONCURRENCY = 32;
    /** Time allowed for one request: 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Body type: {@value}. */
    public static final String DEFAULT_CONTENT_TYPE = "application/json";
    /** Deferrals by {@code Retry-After} per job before such an answer counts as a failed attempt: {@value}. */
    public static final int DEFAULT_MAX_DEFERRALS = 10;
    /** Longest dispatch deadline a job may have its requests run for: 30 minutes. */
    public static final Duration DEFAULT_MAX_DISPATCH_DEADLINE = Duration.ofMinutes(30);
    /** Longest wait a receiver's {@code Retry-After} may ask for; a longer one is cut to it: 1 hour. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    private static final CallbackOptions DEFAULTS = builder().build();

    private final int concurrency;
    private final Duration timeout;
    private final String contentType;
    private final String signingSecret;
    private final String nextSigningSecret;
    private final boolean virtualThreads;
    private final System.Logger.Level failureLogLevel;
    private final boolean logStackTraces;
    private final int maxDeferrals;
    private final Duration maxDispatchDeadline;

    private CallbackOptions(Builder b) {
        this.concurrency = b.concurrency;
        this.timeout = b.timeout;
        this.contentType = b.contentType;
        this.signingSecret = b.signingSecret;
        this.nextSigningSecret = b.nextSigningSecret;
        this.virtualThreads = b.virtualThreads;
        this.failureLogLevel = b.failureLogLevel;
        this.logStackTraces = b.logStackTraces;
        this.maxDeferrals = b.maxDeferrals;
        this.maxDispatchDeadline = b.maxDispatchDeadline;
    }

    /** @return the defaults: unsigned, platform threads */
    public static CallbackOptions defaults() {
        return DEFAULTS;
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding these options */
    public Builder mutate() {
        Builder b = new Builder();
        b.concurrency = concurrency;
        b.timeout = timeout;
        b.contentType = contentType;
        b.signingSecret = signingSecret;
        b.nextSigningSecret = nextSigningSecret;
        b.virtualThreads = virtualThreads;
        b.failureLogLevel = failureLogLevel;
        b.logStackTraces = logStackTraces;
        b.maxDeferrals = maxDeferrals;
        b.maxDispatchDeadline = maxDispatchDeadline;
        return b;
    }

    /** @return requests in flight at once over all topics, 1 to 10000 */
    public int concurrency() {
        return concurrency;
    }

    /** @return how long one request may take, connect to last byte; positive */
    public Duration timeout() {
        return timeout;
    }

    /** @return the {@code Content-Type} of the request body, e.g. {@code application/json}; never blank */
    public String contentType() {
        return contentType;
    }

    /** @return the HMAC key of the first {@code v2} signature, at least 16 characters; null for unsigned requests */
    public String signingSecret() {
        return signingSecret;
    }

    /**
     * @return the secret that will replace {@link #signingSecret()}, at least 16 characters: requests carry a second
     *     signature made with it; null when no rotation is under way
     */
    public String nextSigningSecret() {
        return nextSigningSecret;
    }

    /** @return whether the requests are sent from virtual threads ({@link Builder#virtualThreads(boolean)}) */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /** @return the level of a failed request's log line ({@link Builder#failureLogLevel}); never null */
    public System.Logger.Level failureLogLevel() {
        return failureLogLevel;
    }

    /** @return whether failure log lines carry the stack trace at any level ({@link Builder#logStackTraces}) */
    public boolean logStackTraces() {
        return logStackTraces;
    }

    /**
     * @return how many times one job's receiver may defer it ({@code 429} or {@code 503} with {@code Retry-After})
     *     without an attempt being charged, 0 to 1000
     */
    public int maxDeferrals() {
        return maxDeferrals;
    }

    /**
     * @return the longest a request may take for a job with its own {@link JobRequest#dispatchDeadline()}: a longer one
     *     is cut to this; 1 ms to 24 h
     */
    public Duration maxDispatchDeadline() {
        return maxDispatchDeadline;
    }

    /** Builds {@link CallbackOptions}; not thread-safe. */
    public static final class Builder {
        private int concurrency = DEFAULT_CONCURRENCY;
        private Duration timeout = DEFAULT_TIMEOUT;
        private String contentType = DEFAULT_CONTENT_TYPE;
        private String signingSecret;
        private String nextSigningSecret;
        private boolean virtualThreads;
        private System.Logger.Level failureLogLevel = WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL;
        private boolean logStackTraces;
        private int maxDeferrals = DEFAULT_MAX_DEFERRALS;
        private Duration maxDispatchDeadline = DEFAULT_MAX_DISPATCH_DEADLINE;

        private Builder() {}

        /**
         * @param concurrency requests in flight at once over all topics, 1 to 10000
         * @return this builder
         * @throws IllegalArgumentException naming {@code concurrency} when out of range
         */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1 || concurrency > 10_000) {
                throw new IllegalArgumentException("concurrency: must be between 1 and 10000, got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * @param timeout how long one request may take, connect to last byte; positive. A job's lease covers its
         *     request: it is extended to this timeout plus 2 s before the request is sent, when less is left
         * @return this builder
         * @throws IllegalArgumentException naming {@code timeout} when null, zero or negative
         */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout: must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param contentType the {@code Content-Type} of the request body, e.g. {@code application/json}
         * @return this builder
         * @throws IllegalArgumentException naming {@code contentType} when null or blank
         */
        public Builder contentType(String contentType) {
            if (contentType == null || contentType.isBlank()) {
                throw new IllegalArgumentException("contentType: must not be blank");
            }
            this.contentType = contentType;
            return this;
        }

        /**
         * @param signingSecret the HMAC key, at least 16 characters; null for unsigned requests
         * @return this builder
         * @throws IllegalArgumentException naming {@code signingSecret} when shorter than 16 characters
         */
        public Builder signingSecret(String signingSecret) {
            if (signingSecret != null && signingSecret.length() < 16) {
                throw new IllegalArgumentException("signingSecret: must be at least 16 characters");
            }
            this.signingSecret = signingSecret;
            return this;
        }

        /**
         * Starts a key rotation: each request carries a second {@code v2} signature made with this secret. Set it, let
         * every receiver accept it, then make it the {@link #signingSecret} and clear this one.
         *
         * @param nextSigningSecret the secret that will replace the signing secret, at least 16 characters and
         *     different from it; null (the default) for one signature
         * @return this builder
         * @throws IllegalArgumentException naming {@code nextSigningSecret} when shorter than 16 characters
         */
        public Builder nextSigningSecret(String nextSigningSecret) {
            if (nextSigningSecret != null && nextSigningSecret.length() < 16) {
                throw new IllegalArgumentException("nextSigningSecret: must be at least 16 characters");
            }
            this.nextSigningSecret = nextSigningSecret;
            return this;
        }

        /**
         * Sends the requests from virtual threads (Java 21 and later), so that many slow receivers hold no kernel
         * thread each; as {@link WorkerOptions.Builder#virtualThreads(boolean)}.
         *
         * @param virtualThreads true for virtual threads; false (the default) for platform daemon threads
         * @return this builder
         * @throws IllegalArgumentException naming {@code virtualThreads} when true on a JVM without virtual threads
         *     (before Java 21); the builder is then unchanged
         */
        public Builder virtualThreads(boolean virtualThreads) {
            if (virtualThreads) {
                HandlerThreads.requireVirtualThreads("virtualThreads");
            }
            this.virtualThreads = virtualThreads;
            return this;
        }

        /**
         * The level of the log line of a failed request whose job will be retried; as
         * {@link WorkerOptions.Builder#failureLogLevel}.
         *
         * @param failureLogLevel {@code WARNING} by default; {@code OFF} for no failure lines
         * @return this builder
         * @throws IllegalArgumentException naming {@code failureLogLevel} when null
         */
        public Builder failureLogLevel(System.Logger.Level failureLogLevel) {
            if (failureLogLevel == null) {
                throw new IllegalArgumentException("failureLogLevel: must not be null");
            }
            this.failureLogLevel = failureLogLevel;
            return this;
        }

        /**
         * @param logStackTraces true to add the stack trace to every failure log line; false (the default) to add it
         *     only at DEBUG; as {@link WorkerOptions.Builder#logStackTraces}
         * @return this builder
         */
        public Builder logStackTraces(boolean logStackTraces) {
            this.logStackTraces = logStackTraces;
            return this;
        }

        /**
         * @param maxDeferrals how many times one job's receiver may defer it with {@code Retry-After} before such an
         *     answer counts as a failed attempt, 0 (every such answer counts) to 1000; 10 by default
         * @return this builder
         * @throws IllegalArgumentException naming {@code maxDeferrals} when out of range
         */
        public Builder maxDeferrals(int maxDeferrals) {
            if (maxDeferrals < 0 || maxDeferrals > 1000) {
                throw new IllegalArgumentException("maxDeferrals: must be between 0 and 1000, got " + maxDeferrals);
            }
            this.maxDeferrals = maxDeferrals;
            return this;
        }

        /**
         * @param maxDispatchDeadline the longest a request may take for a job with its own dispatch deadline, 1 ms to
         *     24 h; 30 minutes by default
         * @return this builder
         * @throws IllegalArgumentException naming {@code maxDispatchDeadline} when null or out of range
         */
        public Builder maxDispatchDeadline(Duration maxDispatchDeadline) {
            if (maxDispatchDeadline == null
                    || maxDispatchDeadline.toMillis() < 1
                    || maxDispatchDeadline.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException(
                        "maxDispatchDeadline: must be between 1 ms and 24 h, got " + maxDispatchDeadline);
            }
            this.maxDispatchDeadline = maxDispatchDeadline;
            return this;
        }

        /**
         * @return the options
         * @throws IllegalArgumentException naming {@code nextSigningSecret} when it is set without a signing secret or
         *     equals it
         */
        public CallbackOptions build() {
            if (nextSigningSecret != null && signingSecret == null) {
                throw new IllegalArgumentException("nextSigningSecret: needs a signingSecret to rotate from");
            }
            if (nextSigningSecret != null && nextSigningSecret.equals(signingSecret)) {
                throw new IllegalArgumentException("nextSigningSecret: must differ from the signingSecret");
            }
            return new CallbackOptions(this);
        }
    }

    @Override
    public String toString() {
        return "CallbackOptions[concurrency=" + concurrency + ", timeout=" + timeout + ", contentType=" + contentType
                + ", signed=" + (signingSecret != null) + ", rotating=" + (nextSigningSecret != null)
                + ", virtualThreads=" + virtualThreads + ", failureLogLevel=" + failureLogLevel
                + ", logStackTraces=" + logStackTraces + ", maxDeferrals=" + maxDeferrals + ", maxDispatchDeadline="
                + maxDispatchDeadline + "]";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CallbackOptions)) {
            return false;
        }
        CallbackOptions c = (CallbackOptions) o;
        return concurrency == c.concurrency
                && timeout.equals(c.timeout)
                && contentType.equals(c.contentType)
                && Objects.equals(signingSecret, c.signingSecret)
                && Objects.equals(nextSigningSecret, c.nextSigningSecret)
                && virtualThreads == c.virtualThreads
                && failureLogLevel == c.failureLogLevel
                && logStackTraces == c.logStackTraces
                && maxDeferrals == c.maxDeferrals
                && maxDispatchDeadline.equals(c.maxDispatchDeadline);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                concurrency,
                timeout,
                contentType,
                signingSecret,
                nextSigningSecret,
                virtualThreads,
                failureLogLevel,
                logStackTraces,
                maxDeferrals,
                maxDispatchDeadline);
    }
}
