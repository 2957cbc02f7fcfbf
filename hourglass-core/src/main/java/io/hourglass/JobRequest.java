package io.hourglass;

import io.hourglass.validation.Names;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job to schedule: topic, optional id, payload, due time and per-job options. Immutable and thread-safe; build one
 * with {@link #builder(String)}.
 *
 * <pre>{@code
 * JobRequest close = JobRequest.builder("order-timeout")
 *     .id("order-42")
 *     .payload("{\"orderId\":42}")
 *     .delay(Duration.ofMinutes(10))
 *     .build();
 * hourglass.schedule(close);
 * }</pre>
 *
 * <p>Options left unset ({@code maxAttempts}, {@code backoff}, {@code lease}) take the defaults of the
 * {@link Hourglass} instance that schedules the job, and are stored with the job from then on.
 */
public final class JobRequest {
    /** Lowest {@link Builder#priority(int)}. */
    public static final int MIN_PRIORITY = -5;
    /** Highest {@link Builder#priority(int)}. */
    public static final int MAX_PRIORITY = 5;
    /** The priority of a job that does not set one. */
    public static final int DEFAULT_PRIORITY = 0;
    /** Longest {@link Builder#ttl(Duration)}. */
    private static final Duration MAX_TTL = Duration.ofDays(3650);

    private final String topic;
    private final String id;
    private final byte[] payload;
    private final Duration delay;
    private final Instant runAt;
    private final Integer maxAttempts;
    private final Backoff backoff;
    private final Duration lease;
    private final URI callbackUrl;
    private final OnConflict onConflict;
    private final Duration idempotencyWindow;
    private final Instant expiresAt;
    private final Duration ttl;
    private final OnExpiry onExpiry;
    private final URI failureCallbackUrl;
    private final int priority;
    private final Duration dispatchDeadline;

    private JobRequest(Builder b) {
        this.topic = b.topic;
        this.id = b.id;
        this.payload = b.payload;
        this.delay = b.delay;
        this.runAt = b.runAt;
        this.maxAttempts = b.maxAttempts;
        this.backoff = b.backoff;
        this.lease = b.lease;
        this.callbackUrl = b.callbackUrl;
        this.onConflict = b.onConflict;
        this.idempotencyWindow = b.idempotencyWindow;
        this.expiresAt = b.expiresAt;
        this.ttl = b.ttl;
        this.onExpiry = b.onExpiry;
        this.failureCallbackUrl = b.failureCallbackUrl;
        this.priority = b.priority;
        this.dispatchDeadline = b.dispatchDeadline;
    }

    /**
     * Starts a request for the given topic.
     *
     * @param topic 1 to 100 characters of {@code [A-Za-z0-9._-]}, starting with a letter or digit
     * @return a builder; not thread-safe
     * @throws IllegalArgumentException naming {@code topic} when it is malformed
     */
    public static Builder builder(String topic) {
        return new Builder(Names.checkTopic(topic));
    }

    /** @return the topic; never null */
    public String topic() {
        return topic;
    }

    /**
     * @return the caller's id, or null to have one generated (72 random bits in 12 URL-safe characters, 128 bits in 22
     *     with a cold tier, see {@link io.hourglass.validation.Names#newId()}): unique among the topic's jobs and
     *     reserved ids, not meant as a key across topics or all time. A generated id ignores {@link #onConflict()}, as
     *     no other job can have been given it on purpose
     */
    public String id() {
        return id;
    }

    /** @return a copy of the payload bytes; never null (empty when none was given) */
    public byte[] payload() {
        return payload.clone();
    }

    /** @return the delay from the moment Redis receives the request, or null when {@link #runAt()} is set */
    public Duration delay() {
        return delay;
    }

    /** @return the absolute due instant, or null when {@link #delay()} is set */
    public Instant runAt() {
        return runAt;
    }

    /** @return the maximum number of deliveries, or null for the instance's default */
    public Integer maxAttempts() {
        return maxAttempts;
    }

    /** @return the retry backoff, or null for the instance's default */
    public Backoff backoff() {
        return backoff;
    }

    /** @return the lease (visibility timeout) of each delivery, or null for the instance's default */
    public Duration lease() {
        return lease;
    }

    /** @return the http(s) URL the job is POSTed to when due, or null for delivery to workers */
    public URI callbackUrl() {
        return callbackUrl;
    }

    /** @return what to do when the id exists already; never null */
    public OnConflict onConflict() {
        return onConflict;
    }

    /**
     * @return how long the job's id stays reserved once the job is acked, cancelled or its dead letter deleted
     *     ({@link Duration#ZERO}: not at all), or null for the topic's default
     *     ({@link HourglassBuilder#idempotencyWindow(String, Duration)})
     */
    public Duration idempotencyWindow() {
        return idempotencyWindow;
    }

    /** @return when the job expires unless delivered by then, or null (see {@link #ttl()}; at most one is set) */
    public Instant expiresAt() {
        return expiresAt;
    }

    /**
     * @return how long after its due time the job expires unless delivered by then, or null (see {@link #expiresAt()};
     *     at most one is set)
     */
    public Duration ttl() {
        return ttl;
    }

    /** @return what happens when the job expires undelivered; never null ({@link OnExpiry#DEAD_LETTER} by default) */
    public OnExpiry onExpiry() {
        return onExpiry;
    }

    /** @return the http(s) URL a failure notice is POSTed to when the job goes to the dead letters, or null */
    public URI failureCallbackUrl() {
        return failureCallbackUrl;
    }

    /**
     * @return the job's priority, {@link #MIN_PRIORITY} to {@link #MAX_PRIORITY} ({@link #DEFAULT_PRIORITY} unless
     *     set); among due jobs of its topic, higher is claimed first
     */
    public int priority() {
        return priority;
    }

    /**
     * @return how long one callback request of the job may take, connect to last byte, up to the dispatcher's
     *     {@link CallbackOptions#maxDispatchDeadline()}; null for the dispatcher's {@link CallbackOptions#timeout()}
     */
    public Duration dispatchDeadline() {
        return dispatchDeadline;
    }

    int payloadLength() {
        return payload.length;
    }

    /** Builds a {@link JobRequest}. Each setter checks its argument and throws naming the field when it is bad. */
    public static final class Builder {
        private final String topic;
        private String id;
        private byte[] payload = new byte[0];
        private Duration delay = Duration.ZERO;
        private Instant runAt;
        private Integer maxAttempts;
        private Backoff backoff;
        private Duration lease;
        private URI callbackUrl;
        private OnConflict onConflict = OnConflict.REJECT;
        private Duration idempotencyWindow;
        private Instant expiresAt;
        private Duration ttl;
        private OnExpiry onExpiry = OnExpiry.DEAD_LETTER;
        private URI failureCallbackUrl;
        private int priority = DEFAULT_PRIORITY;
        private Duration dispatchDeadline;

        private Builder(String topic) {
            this.topic = topic;
        }

        /**
         * @param id 1 to 128 characters of {@code [A-Za-z0-9._:-]}, unique within the topic, not ending in
         *     {@code :failure} (the failure notice of job {@code x} is {@code x:failure}); null to generate one
         * @return this builder
         * @throws IllegalArgumentException naming {@code id} when it is malformed
         */
        public Builder id(String id) {
            this.id = id == null ? null : Names.checkNewId(id);
            return this;
        }

        /**
         * @param payload opaque bytes handed to the worker unchanged (copied); not null
         * @return this builder
         * @throws IllegalArgumentException naming {@code payload} when null
         */
        public Builder payload(byte[] payload) {
            if (payload == null) {
                throw new IllegalArgumentException("payload: must not be null (use an empty array for none)");
            }
            this.payload = payload.clone();
            return this;
        }

        /**
         * @param payload text, stored as UTF-8; not null
         * @return this builder
         * @throws IllegalArgumentException naming {@code payload} when null
         */
        public Builder payload(String payload) {
            if (payload == null) {
                throw new IllegalArgumentException("payload: must not be null");
            }
            this.payload = payload.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        /**
         * Due this long after Redis receives the request (Redis's clock decides, not this machine's). Replaces a
         * {@link #runAt(Instant)} set before.
         *
         * @param delay zero or positive, millisecond precision
         * @return this builder
         * @throws IllegalArgumentException naming {@code delay} when negative or null
         */
        public Builder delay(Duration delay) {
            if (delay == null || delay.isNegative()) {
                throw new IllegalArgumentException("delay: must be zero or positive, got " + delay);
            }
            this.delay = delay;
            this.runAt = null;
            return this;
        }

        /**
         * Due at this instant, compared with Redis's clock; an instant in the past means due now. Replaces a
         * {@link #delay(Duration)} set before.
         *
         * @param runAt the due instant, millisecond precision; not null
         * @return this builder
         * @throws IllegalArgumentException naming {@code runAt} when null
         */
        public Builder runAt(Instant runAt) {
            if (runAt == null) {
                throw new IllegalArgumentException("runAt: must not be null");
            }
            this.runAt = runAt;
            this.delay = null;
            return this;
        }

        /**
         * @param maxAttempts deliveries before the job goes to the dead letters, 1 to {@value Names#MAX_ATTEMPTS}
         * @return this builder
         * @throws IllegalArgumentException naming {@code maxAttempts} when out of range
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = Names.checkMaxAttempts(maxAttempts);
            return this;
        }

        /**
         * @param backoff the delay before each retry; null for the instance's default
         * @return this builder
         */
        public Builder backoff(Backoff backoff) {
            this.backoff = backoff;
            return this;
        }

        /**
         * @param lease how long a worker holds each delivery before it is given to another, 1 ms to 24 h; null for the
         *     instance's default
         * @return this builder
         * @throws IllegalArgumentException naming {@code lease} when out of range
         */
        public Builder lease(Duration lease) {
            this.lease = lease == null ? null : Names.checkLease(lease, "lease");
            return this;
        }

        /**
         * @param window how long the job's id stays reserved once the job is gone (acked, cancelled, or its dead letter
         *     deleted): a schedule of the same id in that time is refused, or answered {@code KEPT}, as if the job were
         *     still there. 0 (off) to 366 days, whole ms; null for the topic's default
         * @return this builder
         * @throws IllegalArgumentException naming {@code idempotencyWindow} when out of range
         */
        public Builder idempotencyWindow(Duration window) {
            this.idempotencyWindow = window == null ? null : Names.checkIdempotencyWindow(window, "idempotencyWindow");
            return this;
        }

        /**
         * @param callbackUrl an absolute http or https URL with a host, at most 2048 characters: the job is POSTed
         *     there when due instead of going to workers; null for none
         * @return this builder
         * @throws IllegalArgumentException naming {@code callbackUrl} when it is not such a URL
         */
        public Builder callbackUrl(URI callbackUrl) {
            this.callbackUrl = callbackUrl == null ? null : Names.checkCallbackUrl(callbackUrl);
            return this;
        }

        /**
         * The job expires at this instant (Redis's clock) unless it was delivered by then: a job not yet leased at that
         * time is never delivered, whatever attempts it has left, also a retry that falls due after it; see
         * {@link #onExpiry(OnExpiry)}. Replaces a {@link #ttl(Duration)} set before. {@code schedule} refuses an
         * instant that is not after the job's due time.
         *
         * @param expiresAt the expiry instant, millisecond precision; null for none
         * @return this builder
         */
        public Builder expiresAt(Instant expiresAt) {
            this.expiresAt = expiresAt;
            if (expiresAt != null) {
                this.ttl = null;
            }
            return this;
        }

        /**
         * The job expires this long after its due time (fixed when it is scheduled, from the due time Redis computes),
         * unless it was delivered by then; as {@link #expiresAt(Instant)}, which it replaces.
         *
         * @param ttl positive, millisecond precision, at most 3650 days; null for none
         * @return this builder
         * @throws IllegalArgumentException naming {@code ttl} when zero, negative or longer
         */
        public Builder ttl(Duration ttl) {
            if (ttl != null && (ttl.toMillis() < 1 || ttl.compareTo(MAX_TTL) > 0)) {
                throw new IllegalArgumentException("ttl: must be between 1 ms and 3650 days, got " + ttl);
            }
            this.ttl = ttl;
            if (ttl != null) {
                this.expiresAt = null;
            }
            return this;
        }

        /**
         * @param onExpiry what happens when the job expires undelivered: {@link OnExpiry#DEAD_LETTER} (the default) or
         *     {@link OnExpiry#DROP}; not null
         * @return this builder
         * @throws IllegalArgumentException naming {@code onExpiry} when null
         */
        public Builder onExpiry(OnExpiry onExpiry) {
            if (onExpiry == null) {
                throw new IllegalArgumentException("onExpiry: must not be null");
            }
            this.onExpiry = onExpiry;
            return this;
        }

        /**
         * When the job goes to the dead letters (its last attempt failed, a non-retryable error, its lease expired on
         * its last attempt, it expired), a failure notice is POSTed to this URL by callback delivery
         * ({@link Hourglass#startCallbackDelivery}), signed, retried and checked against the callback allow-list like
         * any callback: a JSON body with the job's id, topic, reason, attempts, last error, due times and payload
         * (README, "Failure callbacks"). The notice is written in the same Redis script as the death, so it is sent at
         * least once even when the process that ended the job dies right after.
         *
         * @param failureCallbackUrl an absolute http or https URL with a host, at most 2048 characters; null for none
         * @return this builder
         * @throws IllegalArgumentException naming {@code failureCallbackUrl} when it is not such a URL
         */
        public Builder failureCallbackUrl(URI failureCallbackUrl) {
            this.failureCallbackUrl = failureCallbackUrl == null
                    ? null
                    : Names.checkCallbackUrl(failureCallbackUrl, "failureCallbackUrl");
            return this;
        }

        /**
         * The job's priority among the due jobs of its topic: a claim takes the due jobs of a higher priority first,
         * and within one priority the earliest due first, as without priorities (numeric priorities as in BullMQ; asynq
         * weighs whole queues instead). Priority is strict: while jobs of a higher priority are due, no job of a lower
         * one is claimed, so a topic whose high-priority jobs keep its workers busy starves its low ones (README,
         * "Priorities", says what to do). A job not yet due is never delivered early, whatever its priority. Jobs at
         * {@link #DEFAULT_PRIORITY} cost nothing extra; another priority costs its claims a read or two per priority in
         * use.
         *
         * @param priority {@link #MIN_PRIORITY} to {@link #MAX_PRIORITY}, higher first; {@link #DEFAULT_PRIORITY} when
         *     not set
         * @return this builder
         * @throws IllegalArgumentException naming {@code priority} when out of range
         */
        public Builder priority(int priority) {
            if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
                throw new IllegalArgumentException("priority: must be " + MIN_PRIORITY + " to " + MAX_PRIORITY
                        + " (higher first), got " + priority);
            }
            this.priority = priority;
            return this;
        }

        /**
         * @param onConflict what to do when the id exists already; not null. Applies to a caller's id only: a job
         *     scheduled without an id never meets another job, since a generated id that turns out taken is drawn again
         * @return this builder
         */
        public Builder onConflict(OnConflict onConflict) {
            this.onConflict = Objects.requireNonNull(onConflict, "onConflict");
            return this;
        }

        /**
         * Caps how long one callback request of this job may take, connect to last byte, instead of the dispatcher's
         * {@link CallbackOptions#timeout()}; a dispatcher cuts a longer one to its
         * {@link CallbackOptions#maxDispatchDeadline()}. The job's lease is extended while the request runs, so a
         * deadline longer than the lease still delivers the job once. Only for a job with a {@link #callbackUrl}.
         *
         * @param dispatchDeadline 1 ms to 24 h, millisecond precision; null for the dispatcher's timeout
         * @return this builder
         * @throws IllegalArgumentException naming {@code dispatchDeadline} when out of range
         */
        public Builder dispatchDeadline(Duration dispatchDeadline) {
            this.dispatchDeadline =
                    dispatchDeadline == null ? null : Names.checkLease(dispatchDeadline, "dispatchDeadline");
            return this;
        }

        /**
         * @return the request
         * @throws IllegalArgumentException naming {@code dispatchDeadline} when it is set on a job without a callback
         *     URL
         */
        public JobRequest build() {
            if (dispatchDeadline != null && callbackUrl == null) {
                throw new IllegalArgumentException("dispatchDeadline: only for a job with a callbackUrl");
            }
            return new JobRequest(this);
        }
    }
}
