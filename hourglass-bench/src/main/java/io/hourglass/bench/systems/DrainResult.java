package io.hourglass.bench.systems;

import org.HdrHistogram.Histogram;

/**
 * What a drain delivered.
 *
 * @param jobs jobs scheduled
 * @param delivered jobs whose handler started (first deliveries only are counted in lateness)
 * @param early jobs whose handler started before their due time
 * @param seconds the drain time (see the workload for its start)
 * @param latenessMicros handler start minus due time, in microseconds (early ones recorded as 0)
 * @param note caveats, e.g. scheduling overran the due time; empty for none
 */
public record DrainResult(int jobs, long delivered, long early, double seconds, Histogram latenessMicros, String note) {

    /** @return delivered jobs per second of drain time */
    public double jobsPerSecond() {
        return seconds > 0 ? delivered / seconds : Double.NaN;
    }
}
