package io.hourglass.bench;

import java.util.Map;

/**
 * One line of a report: a metric of a scenario, with each system's median over the rounds.
 *
 * @param workload workload title
 * @param scenario scenario within the workload
 * @param metric what was measured
 * @param unit its unit
 * @param direction which way is better
 * @param values median per system; NaN when the system ran but produced no figure
 * @param notes notes per system, where any
 */
public record ReportRow(
        String workload,
        String scenario,
        String metric,
        String unit,
        Direction direction,
        Map<SystemName, Double> values,
        Map<SystemName, String> notes) {

    /**
     * @param system a system
     * @return its median, NaN when absent
     */
    public double value(SystemName system) {
        return values.getOrDefault(system, Double.NaN);
    }

    /**
     * Hourglass's figure divided by a peer's: above 1 is better for throughput, below 1 for latency and memory.
     *
     * @param peer the peer
     * @return the ratio, NaN when either side is missing or the peer's figure is zero
     */
    public double ratioTo(SystemName peer) {
        double hourglass = value(SystemName.HOURGLASS);
        double other = value(peer);
        if (Double.isNaN(hourglass) || Double.isNaN(other) || other == 0) {
            return Double.NaN;
        }
        return hourglass / other;
    }

    /** @return the notes of every system, "System: note", joined by " / " */
    public String joinedNotes() {
        StringBuilder b = new StringBuilder();
        notes.forEach((system, note) -> {
            if (b.length() > 0) {
                b.append(" / ");
            }
            b.append(system.label()).append(": ").append(note);
        });
        return b.toString();
    }
}
