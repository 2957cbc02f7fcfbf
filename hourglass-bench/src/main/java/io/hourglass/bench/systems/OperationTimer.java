package io.hourglass.bench.systems;

import java.util.Map;
import org.HdrHistogram.Histogram;

/** Times single blocking calls into per-operation histograms of microseconds. */
final class OperationTimer {
    private static final long HIGHEST_MICROS = 60_000_000L;

    private OperationTimer() {}

    static void time(Map<String, Histogram> latencies, String operation, Runnable call) {
        long start = System.nanoTime();
        call.run();
        long micros = (System.nanoTime() - start) / 1000;
        latencies
                .computeIfAbsent(operation, k -> new Histogram(HIGHEST_MICROS, 3))
                .recordValue(Math.min(HIGHEST_MICROS, micros));
    }
}
