package dev.flipper.bench.suite;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** The suite's PNG plots (XChart): throughput per phase, and p99 latency against load, one of each per store. */
final class Plots {
  private static final List<String> PHASES =
      List.of("enqueue-single", "enqueue-batch", "drain", "drain-client", "mixed");
  private static final int[] PERCENTS = {25, 50, 75, 90};

  private final List<Target> targets;
  private final Figures figures;

  Plots(List<Target> targets, List<Run> runs) {
    this.targets = targets;
    this.figures = new Figures(runs);
  }

  void write(Path dir) throws IOException {
    for (String store : targets.stream().map(Target::store).distinct().toList()) {
      List<Target> columns = targets.stream().filter(t -> t.store().equals(store)).toList();
      BitmapEncoder.saveBitmap(throughput(store, columns),
          dir.resolve("throughput-" + Report.slug(store)).toString(), BitmapEncoder.BitmapFormat.PNG);
      XYChart latency = latency(store, columns);
      if (!latency.getSeriesMap().isEmpty()) {
        BitmapEncoder.saveBitmap(latency, dir.resolve("latency-" + Report.slug(store)).toString(),
            BitmapEncoder.BitmapFormat.PNG);
      }
    }
  }

  private CategoryChart throughput(String store, List<Target> columns) {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(420)
        .title("Throughput on " + store + " (median)").xAxisTitle("phase").yAxisTitle("jobs/s").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    for (Target target : columns) {
      List<String> phases = new ArrayList<>();
      List<Double> rates = new ArrayList<>();
      for (String phase : PHASES) {
        phases.add(phase);
        rates.add(figures.of(target, phase, Result::rate).map(Figures.Stat::median).orElse(0.0));
      }
      chart.addSeries(target.label(), phases, rates);
    }
    return chart;
  }

  private XYChart latency(String store, List<Target> columns) {
    XYChart chart = new XYChartBuilder().width(900).height(420)
        .title("Enqueue-to-start p99 on " + store + " (median)").xAxisTitle("rate, % of the system's drain rate")
        .yAxisTitle("ms").build();
    chart.getStyler().setYAxisLogarithmic(true);
    for (Target target : columns) {
      List<Integer> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int percent : PERCENTS) {
        figures.of(target, "latency-" + percent, Figures.latency("p99")).ifPresent(p99 -> {
          xs.add(percent);
          ys.add(Math.max(0.01, p99.median()));
        });
      }
      if (!xs.isEmpty()) {
        chart.addSeries(target.label(), xs, ys);
      }
    }
    return chart;
  }
}
