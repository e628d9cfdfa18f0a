package dev.flipper.admin.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.prometheus.client.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Exports a daemon's Dropwizard registry the Prometheus way: names and labels from {@link
 * MetricNames}, counters (and meters) as {@code counter} families ending in {@code _total},
 * bucketed timers and histograms as {@code histogram} (seconds, bytes), other timers and histograms
 * as {@code summary}, numeric gauges as {@code gauge}; {@link LabeledMetric}s add their own
 * families. Thread-safe.
 */
public final class PrometheusExporter extends Collector {
  private static final double NANOS_PER_SECOND = 1e9;

  private final MetricRegistry registry;

  public PrometheusExporter(MetricRegistry registry) {
    this.registry = registry;
  }

  @Override
  public List<MetricFamilySamples> collect() {
    Map<String, Family> families = new TreeMap<>();
    List<MetricFamilySamples> labeled = new ArrayList<>();
    for (Map.Entry<String, Metric> entry : registry.getMetrics().entrySet()) {
      String name = entry.getKey();
      Metric metric = entry.getValue();
      if (metric instanceof LabeledMetric own) {
        labeled.addAll(own.collect());
      } else if (metric instanceof BucketedTimers.BucketedTimer timer) {
        histogram(families, MetricNames.map(name, "timer"), timer.buckets);
      } else if (metric instanceof BucketedTimers.BucketedHistogram histogram) {
        histogram(families, MetricNames.map(name, "histogram"), histogram.buckets);
      } else if (metric instanceof Timer timer) {
        summary(families, MetricNames.map(name, "timer"), timer, 1 / NANOS_PER_SECOND);
      } else if (metric instanceof Histogram histogram) {
        summary(families, MetricNames.map(name, "histogram"), histogram, 1);
      } else if (metric instanceof Counter counter) {
        add(
            families,
            MetricNames.map(name, "counter"),
            Type.COUNTER,
            "_total",
            List.of(),
            List.of(),
            counter.getCount());
      } else if (metric instanceof Meter meter) {
        add(
            families,
            MetricNames.map(name, "meter"),
            Type.COUNTER,
            "_total",
            List.of(),
            List.of(),
            meter.getCount());
      } else if (metric instanceof Gauge<?> gauge) {
        Double value = number(gauge.getValue());
        if (value != null) {
          add(
              families,
              MetricNames.map(name, "gauge"),
              Type.GAUGE,
              "",
              List.of(),
              List.of(),
              value);
        }
      }
    }
    List<MetricFamilySamples> all = new ArrayList<>();
    families.values().forEach(family -> all.add(family.toSamples()));
    all.addAll(labeled);
    return all;
  }

  private static void histogram(
      Map<String, Family> families, MetricNames.Mapped name, CumulativeBuckets buckets) {
    long[] cumulative = buckets.cumulativeCounts();
    double[] bounds = buckets.bounds();
    for (int i = 0; i < cumulative.length; i++) {
      String le = i < bounds.length ? Collector.doubleToGoString(bounds[i]) : "+Inf";
      add(families, name, Type.HISTOGRAM, "_bucket", List.of("le"), List.of(le), cumulative[i]);
    }
    add(
        families,
        name,
        Type.HISTOGRAM,
        "_count",
        List.of(),
        List.of(),
        cumulative[cumulative.length - 1]);
    add(families, name, Type.HISTOGRAM, "_sum", List.of(), List.of(), buckets.sumInUnit());
  }

  private static void summary(
      Map<String, Family> families,
      MetricNames.Mapped name,
      com.codahale.metrics.Sampling sampling,
      double scale) {
    var snapshot = sampling.getSnapshot();
    for (double q : new double[] {0.5, 0.99}) {
      add(
          families,
          name,
          Type.SUMMARY,
          "",
          List.of("quantile"),
          List.of(Collector.doubleToGoString(q)),
          snapshot.getValue(q) * scale);
    }
    add(
        families,
        name,
        Type.SUMMARY,
        "_count",
        List.of(),
        List.of(),
        ((com.codahale.metrics.Counting) sampling).getCount());
  }

  private static void add(
      Map<String, Family> families,
      MetricNames.Mapped name,
      Type type,
      String suffix,
      List<String> extraLabels,
      List<String> extraValues,
      double value) {
    Family family = families.computeIfAbsent(name.family(), f -> new Family(f, type, name.help()));
    List<String> labels = new ArrayList<>(name.labelNames());
    labels.addAll(extraLabels);
    List<String> values = new ArrayList<>(name.labelValues());
    values.addAll(extraValues);
    family.samples.add(
        new MetricFamilySamples.Sample(name.family() + suffix, labels, values, value));
  }

  private static Double number(Object value) {
    if (value instanceof Number number) {
      return number.doubleValue();
    }
    if (value instanceof Boolean flag) {
      return flag ? 1.0 : 0.0;
    }
    return null;
  }

  private record Family(
      String name, Type type, String help, List<MetricFamilySamples.Sample> samples) {
    Family(String name, Type type, String help) {
      this(name, type, help, new ArrayList<>());
    }

    MetricFamilySamples toSamples() {
      return new MetricFamilySamples(name, type, help, samples);
    }
  }
}
