package io.hourglass.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every {@link Measurement} of a run, in the order taken, and their summary as {@link ReportRow}s: one row per
 * workload, scenario and metric, holding each system's median over the rounds. Thread-safe.
 */
public final class ResultTable {
    private final List<Measurement> measurements = Collections.synchronizedList(new ArrayList<>());

    /** @param measurement one figure to keep */
    public void add(Measurement measurement) {
        measurements.add(measurement);
    }

    /** @return a snapshot of every measurement, in the order taken */
    public List<Measurement> measurements() {
        synchronized (measurements) {
            return List.copyOf(measurements);
        }
    }

    /** @return workload titles, in the order first measured */
    public List<String> workloads() {
        return measurements().stream().map(Measurement::workload).distinct().toList();
    }

    /**
     * @param workload a workload title
     * @return the rows of that workload, in the order first measured
     */
    public List<ReportRow> rows(String workload) {
        Map<String, List<Measurement>> byRow = new LinkedHashMap<>();
        for (Measurement m : measurements()) {
            if (m.workload().equals(workload)) {
                byRow.computeIfAbsent(m.scenario() + "\u0000" + m.metric(), k -> new ArrayList<>())
                        .add(m);
            }
        }
        return byRow.values().stream().map(ResultTable::summarize).toList();
    }

    /**
     * @param workload a workload title
     * @return the systems with at least one measurement (or note) in that workload, in enum order
     */
    public Set<SystemName> systems(String workload) {
        return measurements().stream()
                .filter(m -> m.workload().equals(workload))
                .map(Measurement::system)
                .collect(Collectors.toCollection(() -> java.util.EnumSet.noneOf(SystemName.class)));
    }

    private static ReportRow summarize(List<Measurement> ms) {
        Measurement first = ms.get(0);
        Map<SystemName, Double> medians = new EnumMap<>(SystemName.class);
        Map<SystemName, String> notes = new EnumMap<>(SystemName.class);
        for (SystemName system : SystemName.values()) {
            List<Measurement> own =
                    ms.stream().filter(m -> m.system() == system).toList();
            if (own.isEmpty()) {
                continue;
            }
            medians.put(
                    system,
                    median(own.stream()
                            .filter(Measurement::measured)
                            .mapToDouble(Measurement::value)
                            .sorted()
                            .toArray()));
            Set<String> texts = new LinkedHashSet<>();
            own.stream().map(Measurement::note).filter(n -> !n.isBlank()).forEach(texts::add);
            if (!texts.isEmpty()) {
                notes.put(system, String.join("; ", texts));
            }
        }
        return new ReportRow(
                first.workload(), first.scenario(), first.metric(), first.unit(), first.direction(), medians, notes);
    }

    private static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
