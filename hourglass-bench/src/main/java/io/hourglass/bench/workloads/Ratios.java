package io.hourglass.bench.workloads;

import io.hourglass.bench.Direction;
import io.hourglass.bench.ReportRow;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.SystemName;
import java.util.List;

/** Ratios between two scenarios' Hourglass medians of one workload, for the workloads that compare layouts. */
final class Ratios {
    private Ratios() {}

    /**
     * @param rows the workload's rows so far
     * @param metric e.g. "throughput"
     * @param scenario the numerator's scenario
     * @param baseScenario the denominator's scenario
     * @return the scenario's value ÷ the base's, NaN when either is missing
     */
    static double of(List<ReportRow> rows, String metric, String scenario, String baseScenario) {
        return value(rows, metric, scenario) / value(rows, metric, baseScenario);
    }

    /**
     * Adds a larger cluster's ratios to a smaller one's: schedule ("accepted") and burst throughput, and the Redis
     * capacity ratio (the busiest master's CPU per burst job, smaller ÷ larger).
     *
     * @param scope where the ratios go
     * @param rows the workload's rows so far
     * @param schedule the larger cluster's schedule scenario, then the base's
     * @param burst the larger cluster's burst scenario, then the base's
     * @param busiestCpuMetric the metric of the busiest master's CPU per job
     * @param masters the base's masters, then the larger cluster's
     */
    static void addClusterRatios(
            ScenarioScope scope,
            List<ReportRow> rows,
            String[] schedule,
            String[] burst,
            String busiestCpuMetric,
            int[] masters) {
        scope.add("schedule ratio", "×", Direction.HIGHER_IS_BETTER, of(rows, "accepted", schedule[0], schedule[1]));
        scope.add(
                "burst throughput ratio", "×", Direction.HIGHER_IS_BETTER, of(rows, "throughput", burst[0], burst[1]));
        scope.add(
                "Redis capacity ratio",
                "×",
                Direction.HIGHER_IS_BETTER,
                of(rows, busiestCpuMetric, burst[1], burst[0]),
                "the busiest master's CPU per burst job, " + masters[0] + " ÷ " + masters[1]
                        + ": how far Redis's side would scale where each master has a core of its own; not a"
                        + " throughput");
    }

    private static double value(List<ReportRow> rows, String metric, String scenario) {
        return rows.stream()
                .filter(r -> r.metric().equals(metric) && r.scenario().equals(scenario))
                .mapToDouble(r -> r.value(SystemName.HOURGLASS))
                .findFirst()
                .orElse(Double.NaN);
    }
}
