package io.hourglass;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Worker} runs its handler. Immutable and thread-safe; start from {@link #defaults()} or
 * {@link #builder()}, change a copy with {@link #mutate()}.
 */
public final class WorkerOptions {
    /** Handlers running at once per worker: {@value}. */
    public static final int DEFAULT_CONCURRENCY = 8;
    /** Most jobs fetched by one claim: {@value}. A claim never takes more than the free handler slots. */
    public static final int DEFAULT_MAX_BATCH = 64;
    /** How long {@link Worker#close()} lets running handlers finish: 30 s. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
    /** The level of the log line of a failed attempt that will be retried: {@code WARNING}. */
    public static final System.Logger.Level DEFAULT_FAILURE_LOG_LEVEL = System.Logger.Level.WARNING;

    private static final WorkerOptions DEFAULTS = builder().build();

    private final int concurrency;
    private final int maxBatch;
    private final Duration handlerTimeout;
    private final Duration shutdownGrace;
    private final boolean virtualThreads;
    private final boolean autoExtendLease;
    private final System.Logger.Level failureLogLevel;
    private final boolean logStackTraces;

    private WorkerOptions(Builder b) {
        this.concurrency = b.concurrency;
        this.maxBatch = b.maxBatch;
        this.handlerTimeout = b.handlerTimeout;
        this.shutdownGrace = b.shutdownGrace;
        this.virtualThreads = b.virtualThreads;
        this.autoExtendLease = b.autoExtendLease;
        this.failureLogLevel = b.failureLogLevel;
        this.logStackTraces = b.logStackTraces;
    }

    /** @return the default options */
    public static WorkerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @return whether this JVM can run handlers on virtual threads ({@link Builder#virtualThreads(boolean)}): Java 21
     *     or later
     */
    public static boolean virtualThreadsAvailable() {
        return HandlerThreads.virtualThreadsAvailable();
    }

    /** @return a builder holding the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding these options */
    public Builder mutate() {
        Builder b = new Builder();
        b.concurrency = concurrency;
        b.maxBatch = maxBatch;
        b.handlerTimeout = handlerTimeout;
        b.shutdownGrace = shutdownGrace;
        b.virtualThreads = virtualThreads;
        b.autoExtendLease = autoExtendLease;
        b.failureLogLevel = failureLogLevel;
        b.logStackTraces = logStackTraces;
        return b;
    }

    /** @return handlers running at once, at least 1 */
    public int concurrency() {
        return concurrency;
    }

    /** @return most jobs fetched by one claim, at least 1 */
    public int maxBatch() {
        return maxBatch;
    }

    /** @return how long a handler may run before it is interrupted and nacked, or null for no limit */
    public Duration handlerTimeout() {
        return handlerTimeout;
    }

    /** @return how long {@link Worker#close()} waits for running handlers; never null */
    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    /** @return whether handlers run on virtual threads ({@link Builder#virtualThreads(boolean)}); false by default */
    public boolean virtualThreads() {
        return virtualThreads;
    }

    /**
     * @return whether a running handler's lease is extended for it ({@link Builder#autoExtendLease}); false by default
     */
    public boolean autoExtendLease() {
        return autoExtendLease;
    }

    /** @return the level of a retried failure's log line ({@link Builder#failureLogLevel}); never null */
    public System.Logger.Level failureLogLevel() {
        return failureLogLevel;
    }

    /** @return whether failure log lines carry the stack trace at any level ({@link Builder#logStackTraces}) */
    public boolean logStackTraces() {
        return logStackTraces;
    }

    /** Builds {@link WorkerOptions}; not thread-safe. */
    public static final class Builder {
        private int concurrency = DEFAULT_CONCURRENCY;
        private int maxBatch = DEFAULT_MAX_BATCH;
        private Duration handlerTimeout;
        private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
        private boolean virtualThreads;
        private boolean autoExtendLease;
        private System.Logger.Level failureLogLevel = DEFAULT_FAILURE_LOG_LEVEL;
        private boolean logStackTraces;

        private Builder() {}

        /**
         * Handlers running at once, which also sizes the claims: beside a claim in flight a worker claims again once
         * half its slots are free (at most {@link #maxBatch}); on a Redis Cluster that half is shared by the masters
         * that serve the topic, but never below 8 slots (or half, when fewer), so a worker keeps about two claims in
         * flight on each master when it has 16 slots per master or more.
         *
         * @param concurrency handlers running at once, 1 to 10000
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
         * @param maxBatch most jobs fetched by one claim, 1 to 1000
         * @return this builder
         * @throws IllegalArgumentException naming {@code maxBatch} when out of range
         */
        public Builder maxBatch(int maxBatch) {
            if (maxBatch < 1 || maxBatch > 1000) {
                throw new IllegalArgumentException("maxBatch: must be between 1 and 1000, got " + maxBatch);
            }
            this.maxBatch = maxBatch;
            return this;
        }

        /**
         * @param handlerTimeout how long a handler may run before its thread is interrupted and the job nacked;
         *     positive, or null for no limit
         * @return this builder
         * @throws IllegalArgumentException naming {@code handlerTimeout} when zero or negative
         */
        public Builder handlerTimeout(Duration handlerTimeout) {
            if (handlerTimeout != null && (handlerTimeout.isNegative() || handlerTimeout.isZero())) {
                throw new IllegalArgumentException("handlerTimeout: must be positive, got " + handlerTimeout);
            }
            this.handlerTimeout = handlerTimeout;
            return this;
        }

        /**
         * @param shutdownGrace how long {@link Worker#close()} waits for running handlers; zero or positive
         * @return this builder
         * @throws IllegalArgumentException naming {@code shutdownGrace} when negative or null
         */
        public Builder shutdownGrace(Duration shutdownGrace) {
            if (shutdownGrace == null || shutdownGrace.isNegative()) {
                throw new IllegalArgumentException("shutdownGrace: must be zero or positive, got " + shutdownGrace);
            }
            this.shutdownGrace = shutdownGrace;
            return this;
        }

        /**
         * Runs the handlers on virtual threads (Java 21 and later) instead of platform threads, where the JVM has them.
         * A handler that waits on I/O (an HTTP call, a database query) then holds a virtual thread, which costs a few
         * KiB of heap and no kernel thread, so a high {@link #concurrency(int)} stays cheap; and starting a claimed job
         * wakes a virtual thread in the JVM rather than a kernel thread, which costs the worker less CPU per job. The
         * concurrency still bounds how many handlers run at once (back-pressure), and a timeout still interrupts the
         * handler's thread. A CPU-bound handler gains nothing. On Java 21 to 23 a virtual thread that blocks inside a
         * {@code synchronized} block or method holds its carrier thread until it is done (JEP 491 lifted this in Java
         * 24), so there a handler that blocks in such code can stall the others.
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
         * Extends a running handler's lease for it, as BullMQ renews a job's lock: when two thirds of the job's lease
         * are left, the lease is extended to a full lease from now (receipt-fenced, like {@link Job#extendLease}),
         * again and again until the handler returns, throws or times out, from a thread of the worker's own that
         * nothing else of the instance can hold up. A handler that runs longer than its lease is then not redelivered
         * to another worker while it still runs. Extension stops for good when Redis refuses the receipt (the delivery
         * was cancelled, rescheduled or replaced); a failed call is tried again at the next step. A lease the handler
         * extended itself is not shortened. The {@link #handlerTimeout} still bounds how long a handler runs.
         *
         * @param autoExtendLease true to extend; false (the default) to leave the lease to the handler
         * @return this builder
         */
        public Builder autoExtendLease(boolean autoExtendLease) {
            this.autoExtendLease = autoExtendLease;
            return this;
        }

        /**
         * The level of the log line written when a handler fails and its job will be retried (SLF4J logger
         * {@code io.hourglass.failures}). The line names the topic, the job id, the attempt out of the job's attempts,
         * the next due time and the exception's class and message. A job's last failure, after which it goes to the
         * dead letters, is logged at {@code WARNING} (or, when this level is {@code ERROR}, at {@code ERROR}) unless
         * this level is {@code OFF}. Lines are rate-limited per topic (README, "Failures in the log").
         *
         * @param failureLogLevel {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARNING} (the default),
         *     {@code ERROR} or {@code OFF} ({@code ALL} is read as {@code TRACE})
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
         * @param logStackTraces true to add the exception's stack trace to every failure log line; false (the default)
         *     to add it only while the {@code io.hourglass.failures} logger has DEBUG enabled
         * @return this builder
         */
        public Builder logStackTraces(boolean logStackTraces) {
            this.logStackTraces = logStackTraces;
            return this;
        }

        /** @return the options */
        public WorkerOptions build() {
            return new WorkerOptions(this);
        }
    }

    @Override
    public String toString() {
        return "WorkerOptions[concurrency=" + concurrency + ", maxBatch=" + maxBatch + ", handlerTimeout="
                + handlerTimeout + ", shutdownGrace=" + shutdownGrace + ", virtualThreads=" + virtualThreads
                + ", autoExtendLease=" + autoExtendLease + ", failureLogLevel="
                + failureLogLevel + ", logStackTraces=" + logStackTraces + "]";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WorkerOptions)) {
            return false;
        }
        WorkerOptions w = (WorkerOptions) o;
        return concurrency == w.concurrency
                && maxBatch == w.maxBatch
                && Objects.equals(handlerTimeout, w.handlerTimeout)
                && shutdownGrace.equals(w.shutdownGrace)
                && virtualThreads == w.virtualThreads
                && autoExtendLease == w.autoExtendLease
                && failureLogLevel == w.failureLogLevel
                && logStackTraces == w.logStackTraces;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                concurrency,
                maxBatch,
                handlerTimeout,
                shutdownGrace,
                virtualThreads,
                autoExtendLease,
                failureLogLevel,
                logStackTraces);
    }
}
