package io.hourglass.bench;

/**
 * One figure of one round of one system in one scenario of a workload.
 *
 * @param workload the workload's title, e.g. "End-to-end"
 * @param scenario the variant, e.g. "burst 50000 jobs"
 * @param metric what was measured, e.g. "lateness p99"
 * @param unit e.g. "jobs/s", "ms"
 * @param direction which way is better
 * @param system who was measured
 * @param round 1-based round number
 * @param value the figure, or {@code NaN} when it was not measured (see the note)
 * @param note free text: why not measured, caveats; empty for none
 */
public record Measurement(
        String workload,
        String scenario,
        String metric,
        String unit,
        Direction direction,
        SystemName system,
        int round,
        double value,
        String note) {

    /** @return whether a figure was measured */
    public boolean measured() {
        return !Double.isNaN(value);
    }
}
