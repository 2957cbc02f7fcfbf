package io.hourglass.bench.report;

import io.hourglass.bench.Measurement;
import io.hourglass.bench.ReportRow;
import io.hourglass.bench.ResultTable;
import io.hourglass.bench.SystemName;
import java.util.List;

/**
 * Renders a {@link ResultTable} as CSV: a summary (one line per metric, medians per system, ratios) and the raw
 * measurements of every round.
 */
public final class CsvReport {
    private CsvReport() {}

    /**
     * @param table the results
     * @return CSV text with a header line: workload, scenario, metric, unit, direction, one column per system, the
     *     ratios Hourglass/Redisson and Hourglass/BullMQ, notes
     */
    public static String summary(ResultTable table) {
        StringBuilder out = new StringBuilder("workload,scenario,metric,unit,direction");
        for (SystemName s : SystemName.values()) {
            out.append(',').append(s.name().toLowerCase(java.util.Locale.ROOT));
        }
        out.append(",hourglass_over_redisson,hourglass_over_bullmq,notes\n");
        for (String workload : table.workloads()) {
            for (ReportRow row : table.rows(workload)) {
                StringBuilder line = new StringBuilder();
                cells(
                        line,
                        row.workload(),
                        row.scenario(),
                        row.metric(),
                        row.unit(),
                        row.direction().name());
                for (SystemName s : SystemName.values()) {
                    line.append(',').append(Numbers.plain(row.value(s)));
                }
                line.append(',').append(Numbers.plain(row.ratioTo(SystemName.REDISSON)));
                line.append(',').append(Numbers.plain(row.ratioTo(SystemName.BULLMQ)));
                line.append(',').append(quote(row.joinedNotes()));
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * @param measurements raw figures
     * @return CSV text, one line per measurement and round
     */
    public static String rounds(List<Measurement> measurements) {
        StringBuilder out = new StringBuilder("workload,scenario,metric,unit,system,round,value,note\n");
        for (Measurement m : measurements) {
            StringBuilder line = new StringBuilder();
            cells(
                    line,
                    m.workload(),
                    m.scenario(),
                    m.metric(),
                    m.unit(),
                    m.system().name());
            line.append(',')
                    .append(m.round())
                    .append(',')
                    .append(Numbers.plain(m.value()))
                    .append(',')
                    .append(quote(m.note()));
            out.append(line).append('\n');
        }
        return out.toString();
    }

    private static void cells(StringBuilder line, String... values) {
        for (int i = 0; i < values.length; i++) {
            line.append(i == 0 ? "" : ",").append(quote(values[i]));
        }
    }

    private static String quote(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }
}
