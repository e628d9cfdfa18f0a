package dev.flipper.bench.suite;

import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Medians and ranges of the measured rounds (round ≥ 1) of the suite's runs. */
final class Figures {
  private final List<Run> runs;

  Figures(List<Run> runs) {
    this.runs = runs.stream().filter(run -> run.round() > 0).toList();
  }

  /** The median, lowest and highest of a figure of one target's phase, if it ran. */
  Optional<Stat> of(Target target, String phase, ToDoubleFunction<Result> figure) {
    double[] values = runs.stream()
        .filter(run -> run.target().equals(target) && run.result().phase().equals(phase))
        .mapToDouble(run -> figure.applyAsDouble(run.result()))
        .sorted()
        .toArray();
    if (values.length == 0) {
      return Optional.empty();
    }
    int n = values.length;
    double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    return Optional.of(new Stat(median, values[0], values[n - 1]));
  }

  /** CPU seconds per 10,000 jobs of one process, 0 when the process is not measured for that target. */
  static ToDoubleFunction<Result> cpuPer10k(String process) {
    return result -> result.jobs() == 0 ? 0
        : result.cpuSeconds().getOrDefault(process, 0.0) * 10_000 / result.jobs();
  }

  static ToDoubleFunction<Result> latency(String percentile) {
    return result -> result.latencyMs().get(percentile);
  }

  record Stat(double median, double min, double max) {}
}
