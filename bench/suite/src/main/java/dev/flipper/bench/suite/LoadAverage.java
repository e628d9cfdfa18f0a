package dev.flipper.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's 1-minute load average, sampled around every measured harness run: the lowest and highest seen. */
final class LoadAverage {
  private double min = Double.MAX_VALUE;
  private double max;

  void sample() {
    try {
      double now = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
      min = Math.min(min, now);
      max = Math.max(max, now);
    } catch (IOException | RuntimeException e) {
      // no /proc: the report says the load is unknown
    }
  }

  String range() {
    return max == 0 && min == Double.MAX_VALUE ? "unknown" : String.format("%.1f–%.1f", min, max);
  }
}
