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
 */
public record ListenerDefaults(
        boolean autoStartup,
        int concurrency,
        int maxBatch,
        Duration handlerTimeout,
        Duration shutdownGrace,
        boolean virtualThreads) {

    /** The core's defaults ({@link WorkerOptions#defaults()}), starting automatically. */
    public static final ListenerDefaults DEFAULTS = new ListenerDefaults(
            true,
            WorkerOptions.DEFAULT_CONCURRENCY,
            WorkerOptions.DEFAULT_MAX_BATCH,
            null,
            WorkerOptions.DEFAULT_SHUTDOWN_GRACE,
            false);
}
