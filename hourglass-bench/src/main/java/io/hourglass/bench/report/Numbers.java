package io.hourglass.bench.report;

import java.util.Locale;

/** Formats figures for tables: few digits, NaN as a dash. */
final class Numbers {
    private Numbers() {}

    static String figure(double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        double abs = Math.abs(value);
        if (abs >= 100 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (abs >= 1 || abs == 0) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    static String ratio(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.2f×", value);
    }

    static String plain(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }
}
