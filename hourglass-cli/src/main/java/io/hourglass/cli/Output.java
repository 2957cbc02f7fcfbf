package io.hourglass.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes a command's result to stdout: as aligned columns for people, or as JSON (with {@code --json}) for scripts.
 * Times are ISO-8601 in UTC with millisecond precision, durations in ms in JSON.
 */
final class Output {
    /** Widest cell of a table column that holds free text (payload previews, errors). */
    static final int TEXT_CELL = 40;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintWriter out;
    private final boolean json;

    Output(PrintWriter out, boolean json) {
        this.out = out;
        this.json = json;
    }

    boolean json() {
        return json;
    }

    /** Prints a value (records, maps, lists, JSON nodes) as indented JSON. */
    void printJson(Object value) {
        try {
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the output as JSON", e);
        }
    }

    /** Prints rows under a header, each column as wide as its widest cell, two spaces apart. */
    void printTable(List<String> header, List<List<String>> rows) {
        int[] widths = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - cell.length() + 2));
                }
            }
            out.println(line);
        }
    }

    /** Prints one name per line with its value, the values aligned. */
    void printFields(Map<String, String> fields) {
        int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0);
        fields.forEach((name, value) -> out.println(name + " ".repeat(width - name.length() + 2) + value));
    }

    /** Prints one line of text. */
    void println(String line) {
        out.println(line);
    }

    /** @return the instant as ISO-8601 in UTC, cut to ms; null for null */
    static String time(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** @return the instant for a table cell: ISO-8601 cut to ms, or "-" */
    static String timeCell(Instant instant) {
        return instant == null ? "-" : time(instant);
    }

    /** @return a duration for people: 850ms, 12.3s, 4m05s, 2h10m */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        if (ms < 3_600_000) {
            return String.format(java.util.Locale.ROOT, "%dm%02ds", ms / 60_000, ms / 1000 % 60);
        }
        return String.format(java.util.Locale.ROOT, "%dh%02dm", ms / 3_600_000, ms / 60_000 % 60);
    }

    /**
     * @return free text for one table cell: control characters (newlines, tabs) as spaces, cut to {@link #TEXT_CELL}
     *     characters with an ellipsis; "-" for null or empty
     */
    static String textCell(String text) {
        if (text == null || text.isEmpty()) {
            return "-";
        }
        String flat = text.codePoints()
                .map(c -> Character.isISOControl(c) ? ' ' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return flat.length() <= TEXT_CELL ? flat : flat.substring(0, TEXT_CELL - 1) + "…";
    }

    /**
     * The payload as the server's HTTP API shows it: the JSON value it holds, or, when it is not JSON (a library user's
     * own bytes), a JSON string of its UTF-8 text.
     */
    static JsonNode payload(byte[] payload) {
        try {
            JsonNode node = JSON.readTree(payload);
            if (node != null && !node.isMissingNode()) {
                return node;
            }
        } catch (IOException e) {
            // not JSON: shown as text below
        }
        return TextNode.valueOf(new String(payload, StandardCharsets.UTF_8));
    }

    /**
     * Reads a payload given on the command line.
     *
     * @return its compact JSON text, as the server stores a payload
     * @throws IllegalArgumentException naming {@code --payload} when it is not one JSON value
     */
    static String payloadArgument(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new IllegalArgumentException(
                        "--payload: give a JSON value, e.g. '{\"orderId\":42}' or '\"text\"'");
            }
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "--payload: not JSON (" + e.getOriginalMessage() + "); quote text as '\"text\"'", e);
        }
    }

    /** @return the row's cells as a list (a table row) */
    static List<String> row(String... cells) {
        return Arrays.asList(cells);
    }
}
