package io.hourglass.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws lateness distributions as a PNG: one line per series (system at a rate) through its percentiles, p50 to max,
 * with the lateness in milliseconds on a log scale.
 */
public final class LatenessPlot {
    private static final List<String> LABELS =
            List.of("p50", "p75", "p90", "p95", "p99", "p99.5", "p99.9", "p99.99", "max");
    private static final double[] PERCENTILES = {50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100};
    private static final double FLOOR_MS = 0.01;

    private LatenessPlot() {}

    /**
     * @param series lateness histograms in microseconds, by series name; empty ones are skipped
     * @param file the PNG to write
     * @throws IOException when it cannot be written
     */
    public static void write(Map<String, Histogram> series, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder()
                .width(1000)
                .height(600)
                .title("Lateness (handler start − due time)")
                .xAxisTitle("percentile")
                .yAxisTitle("lateness, ms (log)")
                .build();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
        chart.getStyler().setYAxisLogarithmic(true);
        series.forEach((name, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                double[] y = new double[PERCENTILES.length];
                for (int i = 0; i < PERCENTILES.length; i++) {
                    long micros = PERCENTILES[i] == 100
                            ? histogram.getMaxValue()
                            : histogram.getValueAtPercentile(PERCENTILES[i]);
                    y[i] = Math.max(FLOOR_MS, micros / 1000.0);
                }
                chart.addSeries(name, LABELS, toList(y)).setMarker(SeriesMarkers.CIRCLE);
            }
        });
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static List<Double> toList(double[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
