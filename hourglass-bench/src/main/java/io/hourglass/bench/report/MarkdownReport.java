package io.hourglass.bench.report;

import io.hourglass.bench.Direction;
import io.hourglass.bench.ReportRow;
import io.hourglass.bench.ResultTable;
import io.hourglass.bench.SystemName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Renders a {@link ResultTable} as Markdown: one table per workload with a column per system, the ratios
 * Hourglass/peer, and the notes. Ratios above 1 are better for ↑ metrics, below 1 for ↓ metrics.
 */
public final class MarkdownReport {
    private MarkdownReport() {}

    /**
     * @param table the results
     * @param heading text put first (e.g. machine and command), may be empty
     * @return the Markdown text
     */
    public static String render(ResultTable table, String heading) {
        StringBuilder out = new StringBuilder(heading);
        for (String workload : table.workloads()) {
            out.append("\n### ").append(workload).append("\n\n");
            appendTable(out, table.rows(workload), table.systems(workload));
        }
        return out.toString();
    }

    private static void appendTable(StringBuilder out, List<ReportRow> rows, Set<SystemName> systems) {
        List<SystemName> peers = systems.stream().filter(SystemName::isPeer).toList();
        boolean ratios = systems.contains(SystemName.HOURGLASS);
        List<String> header = new ArrayList<>(List.of("scenario", "metric", "unit"));
        systems.forEach(s -> header.add(s.label()));
        if (ratios) {
            peers.forEach(p -> header.add("HG/" + p.label()));
        }
        header.add("notes");
        line(out, header);
        line(out, header.stream().map(h -> "---").toList());
        for (ReportRow row : rows) {
            List<String> cells = new ArrayList<>(
                    List.of(row.scenario(), row.metric() + " " + row.direction().arrow(), row.unit()));
            systems.forEach(s -> cells.add(Numbers.figure(row.value(s))));
            if (ratios) {
                peers.forEach(p -> cells.add(row.direction() == Direction.INFO ? "" : Numbers.ratio(row.ratioTo(p))));
            }
            cells.add(row.joinedNotes());
            line(out, cells);
        }
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append("| ");
        out.append(String.join(
                " | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()));
        out.append(" |\n");
    }
}
