package dev.flipper.admin.metrics;

import com.codahale.metrics.Metric;
import io.prometheus.client.Collector.MetricFamilySamples;
import java.util.List;

/**
 * A metric registered in a daemon's Dropwizard registry that produces Prometheus families with
 * labels itself (for example queue depth per queue and priority); /stats.txt does not show it.
 * Implementations must be thread-safe and quick: they run on every scrape.
 */
public interface LabeledMetric extends Metric {
  List<MetricFamilySamples> collect();
}
