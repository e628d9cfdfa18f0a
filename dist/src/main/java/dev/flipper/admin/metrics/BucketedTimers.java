package dev.flipper.admin.metrics;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;

/**
 * A daemon's metric registry whose timers, and histograms of sizes, count into {@link
 * CumulativeBuckets}, so that a module's {@code registry.timer(name)} or {@code
 * registry.histogram(name)} becomes a Prometheus histogram on /metrics. The buckets follow the
 * Prometheus family the name maps to: dequeue delays get buckets up to an hour, other timers
 * request latencies, families in bytes body sizes; other histograms stay summaries. Thread-safe.
 */
public final class BucketedTimers extends MetricRegistry {
  private static final String DEQUEUE_DELAY = "flipper_queue_dequeue_delay_seconds";

  // The suppliers run only when the metric is new: looking up an existing one maps no name.
  @Override
  public Timer timer(String name) {
    return timer(name, () -> new BucketedTimer(CumulativeBuckets.seconds(timerBounds(name))));
  }

  @Override
  public Histogram histogram(String name) {
    return histogram(
        name,
        () ->
            family(name, "histogram").endsWith("_bytes")
                ? new BucketedHistogram(new CumulativeBuckets(CumulativeBuckets.SIZE_BYTES, 1))
                : new Histogram(new ExponentiallyDecayingReservoir()));
  }

  private static double[] timerBounds(String name) {
    return family(name, "timer").equals(DEQUEUE_DELAY)
        ? CumulativeBuckets.DELAY_SECONDS
        : CumulativeBuckets.LATENCY_SECONDS;
  }

  private static String family(String name, String kind) {
    return MetricNames.map(name, kind).family();
  }

  /** A timer that keeps a reference to its buckets for the exporter. */
  static final class BucketedTimer extends Timer {
    final CumulativeBuckets buckets;

    BucketedTimer(CumulativeBuckets buckets) {
      super(buckets);
      this.buckets = buckets;
    }
  }

  /** A histogram that keeps a reference to its buckets for the exporter. */
  static final class BucketedHistogram extends Histogram {
    final CumulativeBuckets buckets;

    BucketedHistogram(CumulativeBuckets buckets) {
      super(buckets);
      this.buckets = buckets;
    }
  }
}
