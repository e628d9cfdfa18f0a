package dev.flipper.admin.metrics;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;

/**
 * A daemon's metric registry whose timers count into {@link LatencyBuckets}, so that every timer a
 * module creates with {@code registry.timer(name)} becomes a Prometheus histogram on /metrics.
 * Thread-safe.
 */
public final class BucketedTimers extends MetricRegistry {

  @Override
  public Timer timer(String name) {
    return timer(name, () -> new BucketedTimer(new LatencyBuckets()));
  }

  /** A timer that keeps a reference to its buckets for the exporter. */
  static final class BucketedTimer extends Timer {
    final LatencyBuckets buckets;

    BucketedTimer(LatencyBuckets buckets) {
      super(buckets);
      this.buckets = buckets;
    }
  }
}
