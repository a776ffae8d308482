package io.guard.sample.scenario;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Draws the scenario as three stacked charts sharing the time axis: traffic, caller latency, breaker state. */
final class ScenarioPlot {

    private static final int WIDTH = 1200;
    private static final int HEIGHT = 320;
    private static final List<String> STATES = List.of("CLOSED", "HALF_OPEN", "OPEN");

    private ScenarioPlot() {
    }

    /** Writes {@code file} (PNG); {@code phaseChangesMs} are drawn as vertical lines on every chart. */
    static void write(List<Timeline.Row> rows, List<Long> phaseChangesMs, String title, Path file) throws IOException {
        double[] seconds = column(rows, row -> row.startMs() / 1000.0);

        XYChart traffic = chart(title + " - requests per 100 ms", "requests", phaseChangesMs);
        line(traffic, "sent by callers", seconds, column(rows, row -> row.sent()), Color.GRAY);
        line(traffic, "reaching the downstream", seconds, column(rows, row -> row.downstreamCalls()),
                new Color(0, 110, 190));
        line(traffic, "fallback answers (degraded)", seconds, column(rows, row -> row.fallbacks()),
                new Color(220, 120, 0));

        XYChart latency = chart("Caller latency of requests sent in each 100 ms (ms)", "ms", phaseChangesMs);
        line(latency, "p50", seconds, column(rows, Timeline.Row::p50Ms), new Color(0, 140, 70));
        line(latency, "p99", seconds, column(rows, Timeline.Row::p99Ms), new Color(200, 30, 30));

        XYChart state = chart("Circuit breaker 'inventory': state at the end of each 100 ms", "state",
                phaseChangesMs);
        state.getStyler().setYAxisMin(0.0);
        state.getStyler().setYAxisMax(1.3);
        state.getStyler().setYAxisTicksVisible(false);
        state.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        state.getStyler().setXAxisTitleVisible(true);
        state.setXAxisTitle("seconds since start (dashed lines: downstream latency changed)");
        List<Color> stateColors = List.of(new Color(40, 160, 70), new Color(240, 170, 0), new Color(210, 40, 40));
        for (int i = 0; i < STATES.size(); i++) {
            String name = STATES.get(i);
            XYSeries band = line(state, name, seconds, column(rows, row -> row.state().equals(name) ? 1 : 0),
                    stateColors.get(i));
            band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.StepArea);
            band.setFillColor(stateColors.get(i));
        }

        BitmapEncoder.saveBitmap(List.of(traffic, latency, state), 3, 1, file.toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String yTitle, List<Long> phaseChangesMs) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        styler.setXAxisTitleVisible(false);
        styler.setPlotGridVerticalLinesVisible(false);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setMarkerSize(0);
        styler.setYAxisLeftWidthHint(70);
        styler.setAnnotationLineColor(Color.BLACK);
        styler.setAnnotationLineStroke(
                new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        for (long ms : phaseChangesMs) {
            chart.addAnnotation(new AnnotationLine(ms / 1000.0, true, false));
        }
        return chart;
    }

    private static XYSeries line(XYChart chart, String name, double[] x, double[] y, Color color) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(color);
        return series;
    }

    private static double[] column(List<Timeline.Row> rows, ToDoubleFunction<Timeline.Row> value) {
        return rows.stream().mapToDouble(value).toArray();
    }
}
