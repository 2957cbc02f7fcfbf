package io.hourglass.spring.listener;

import io.hourglass.WorkerOptions;
import java.time.Duration;

/**
 * The options of {@link io.hourglass.spring.HourglassListener} methods whose annotation leaves them empty (the
 * {@code hourglass.listener.*} properties).
 *
 * @param autoStartup whether listener workers start with the application context
 * @param concurrency jobs one method handles at once
 * @param maxBatch most jobs one claim fetches
 * @param handlerTimeout how long one invocation may run, or null for no limit
 * @param shutdownGrace how long running invocations may finish when the context stops; not null
 * @param virtualThreads whether methods run on virtual threads ({@link WorkerOptions.Builder#virtualThreads})
 * @param failureLogLevel the level of a failed invocation's log line ({@link WorkerOptions.Builder#failureLogLevel});
 *     not null
 * @param logStackTraces whether failure log lines carry the stack trace ({@link WorkerOptions.Builder#logStackTraces})
 */
public record ListenerDefaults(
        boolean autoStartup,
        int concurrency,
        int maxBatch,
        Duration handlerTimeout,
        Duration shutdownGrace,
        boolean virtualThreads,
        System.Logger.Level failureLogLevel,
        boolean logStackTraces) {

    /**
     * The shutdown grace of listener methods in Spring applications: 20 s, so that a context that stops while a method
     * runs finishes its listener phase well within Spring's default {@code spring.lifecycle.timeout-per-shutdown-phase}
     * (30 s) and the process exits within Kubernetes' default termination grace period (30 s). Shorter than the core's
     * {@link WorkerOptions#DEFAULT_SHUTDOWN_GRACE}.
     */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(20);

    /** The core's defaults ({@link WorkerOptions#defaults()}) but {@link #DEFAULT_SHUTDOWN_GRACE}, starting. */
    public static final ListenerDefaults DEFAULTS = new ListenerDefaults(
            true,
            WorkerOptions.DEFAULT_CONCURRENCY,
            WorkerOptions.DEFAULT_MAX_BATCH,
            null,
            DEFAULT_SHUTDOWN_GRACE,
            false,
            WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL,
            false);
}
