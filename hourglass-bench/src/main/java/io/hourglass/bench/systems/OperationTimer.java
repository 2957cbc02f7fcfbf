package io.hourglass.bench.systems;

import java.time.Duration;
import java.util.Map;
import java.util.function.IntConsumer;
import org.HdrHistogram.Histogram;

/** Times single blocking calls into per-operation histograms of microseconds. */
final class OperationTimer {
    private static final long HIGHEST_MICROS = 60_000_000L;

    /**
     * How long each backlog operation is called, untimed, before its timed calls (at most as many calls as it will be
     * timed): long enough for a JVM client's JIT to compile the call's path, which a few hundred calls are not, and the
     * same for every system; a peer whose call scans the whole queue gets through a few calls in it.
     */
    static final Duration WARM_UP = Duration.ofSeconds(3);

    private OperationTimer() {}

    static void time(Map<String, Histogram> latencies, String operation, Runnable call) {
        long start = System.nanoTime();
        call.run();
        long micros = (System.nanoTime() - start) / 1000;
        latencies
                .computeIfAbsent(operation, k -> new Histogram(HIGHEST_MICROS, 3))
                .recordValue(Math.min(HIGHEST_MICROS, micros));
    }

    /**
     * Calls {@code call} with 0, 1, 2, ... until {@code calls} calls are made or {@link #WARM_UP} has passed.
     *
     * @param calls the most calls
     * @param call the operation, given the call's number
     */
    static void warmUp(int calls, IntConsumer call) {
        long end = System.nanoTime() + WARM_UP.toNanos();
        for (int i = 0; i < calls && System.nanoTime() < end; i++) {
            call.accept(i);
        }
    }
}
