package io.hourglass.bench;

import io.hourglass.bench.systems.DrainResult;
import org.HdrHistogram.Histogram;

/** Records the measurements of one system in one round of one scenario into a {@link ResultTable}. */
public final class ScenarioScope {
    private final ResultTable table;
    private final String workload;
    private final String scenario;
    private final SystemName system;
    private final int round;

    ScenarioScope(ResultTable table, String workload, String scenario, SystemName system, int round) {
        this.table = table;
        this.workload = workload;
        this.scenario = scenario;
        this.system = system;
        this.round = round;
    }

    /** @return the system measured in this scope */
    public SystemName system() {
        return system;
    }

    /**
     * Records one figure.
     *
     * @param metric what was measured
     * @param unit its unit
     * @param direction which way is better
     * @param value the figure
     */
    public void add(String metric, String unit, Direction direction, double value) {
        add(metric, unit, direction, value, "");
    }

    /**
     * Records one figure with a note.
     *
     * @param metric what was measured
     * @param unit its unit
     * @param direction which way is better
     * @param value the figure, NaN when not measured
     * @param note caveat or reason; empty for none
     */
    public void add(String metric, String unit, Direction direction, double value, String note) {
        table.add(new Measurement(workload, scenario, metric, unit, direction, system, round, value, note));
    }

    /**
     * Records a drain's figures: jobs delivered, early deliveries, lateness percentiles and, if asked, throughput.
     *
     * @param drain the result
     * @param withThroughput whether jobs/s is a figure of this scenario
     */
    public void addDrain(DrainResult drain, boolean withThroughput) {
        if (withThroughput) {
            add("throughput", "jobs/s", Direction.HIGHER_IS_BETTER, drain.jobsPerSecond(), drain.note());
        }
        long missing = drain.jobs() - drain.delivered();
        add("delivered", "jobs", Direction.INFO, drain.delivered(), missing > 0 ? missing + " never delivered" : "");
        add("early", "jobs", Direction.LOWER_IS_BETTER, drain.early());
        addLatencies("lateness", "ms", drain.latenessMicros(), 1000.0);
    }

    /**
     * Records p50, p99, p99.9 and max of a histogram.
     *
     * @param name prefix of the metric names, e.g. "lateness" or "cancel"
     * @param unit unit after scaling
     * @param histogram values in microseconds
     * @param divisor 1000 for milliseconds, 1 for microseconds
     */
    public void addLatencies(String name, String unit, Histogram histogram, double divisor) {
        if (histogram.getTotalCount() == 0) {
            add(name + " p99", unit, Direction.LOWER_IS_BETTER, Double.NaN, "no samples");
            return;
        }
        add(name + " p50", unit, Direction.LOWER_IS_BETTER, histogram.getValueAtPercentile(50) / divisor);
        add(name + " p99", unit, Direction.LOWER_IS_BETTER, histogram.getValueAtPercentile(99) / divisor);
        add(name + " p99.9", unit, Direction.LOWER_IS_BETTER, histogram.getValueAtPercentile(99.9) / divisor);
        add(name + " max", unit, Direction.LOWER_IS_BETTER, histogram.getMaxValue() / divisor);
    }
}
