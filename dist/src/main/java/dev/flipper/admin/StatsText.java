package dev.flipper.admin;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metered;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Sampling;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Renders a metric registry as flat {@code name: value} lines sorted by name, the /stats.txt format
 * that is easy to grep and diff. Counters and gauges give one line; meters, histograms and timers
 * one line per statistic ({@code name.count}, {@code name.m1_rate}, {@code name.p99}, ...; timer
 * times in milliseconds). Stateless.
 */
public final class StatsText {
  private StatsText() {}

  public static String render(MetricRegistry registry) {
    SortedMap<String, String> lines = new TreeMap<>();
    for (Map.Entry<String, Metric> entry : registry.getMetrics().entrySet()) {
      add(lines, entry.getKey(), entry.getValue());
    }
    StringBuilder out = new StringBuilder();
    lines.forEach((name, value) -> out.append(name).append(": ").append(value).append('\n'));
    return out.toString();
  }

  private static void add(SortedMap<String, String> lines, String name, Metric metric) {
    if (metric instanceof Gauge<?> gauge) {
      lines.put(name, format(gauge.getValue()));
      return;
    }
    if (metric instanceof com.codahale.metrics.Counter counter) {
      lines.put(name, Long.toString(counter.getCount()));
      return;
    }
    if (metric instanceof Counting counting) {
      lines.put(name + ".count", Long.toString(counting.getCount()));
    }
    if (metric instanceof Metered metered) {
      lines.put(name + ".m1_rate", format(metered.getOneMinuteRate()));
      lines.put(name + ".m5_rate", format(metered.getFiveMinuteRate()));
    }
    if (metric instanceof Sampling sampling) {
      Snapshot s = sampling.getSnapshot();
      boolean timer = metric instanceof Timer;
      String unit = timer ? "_ms" : "";
      double scale = timer ? 1.0 / TimeUnit.MILLISECONDS.toNanos(1) : 1.0;
      lines.put(name + ".min" + unit, format(s.getMin() * scale));
      lines.put(name + ".mean" + unit, format(s.getMean() * scale));
      lines.put(name + ".p50" + unit, format(s.getMedian() * scale));
      lines.put(name + ".p99" + unit, format(s.get99thPercentile() * scale));
      lines.put(name + ".max" + unit, format(s.getMax() * scale));
    }
  }

  private static String format(Object value) {
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      boolean whole = d == Math.rint(d) && !Double.isInfinite(d);
      return whole ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
    }
    return String.valueOf(value).replace('\n', ' ');
  }
}
