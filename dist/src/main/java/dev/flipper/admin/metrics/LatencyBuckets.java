package dev.flipper.admin.metrics;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.util.concurrent.atomic.LongAdder;

/**
 * A timer's reservoir that also counts every duration into fixed cumulative buckets, so /metrics
 * can export a real Prometheus histogram (rates and {@code histogram_quantile} over any window),
 * while /stats.txt keeps the recent percentiles of the decaying sample. Values are nanoseconds.
 * Thread-safe.
 */
public final class LatencyBuckets implements Reservoir {
  /** Upper bounds in seconds: 0.5 ms to 30 s, roughly ×2.5 apart. */
  static final double[] BOUNDS_SECONDS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private final Reservoir sample = new ExponentiallyDecayingReservoir();
  private final LongAdder[] counts = new LongAdder[BOUNDS_SECONDS.length + 1];
  private final LongAdder sumNanos = new LongAdder();

  public LatencyBuckets() {
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  @Override
  public void update(long nanos) {
    sample.update(nanos);
    sumNanos.add(nanos);
    double seconds = nanos / 1e9;
    int bucket = 0;
    while (bucket < BOUNDS_SECONDS.length && seconds > BOUNDS_SECONDS[bucket]) {
      bucket++;
    }
    counts[bucket].increment(); // the last slot is +Inf
  }

  @Override
  public int size() {
    return sample.size();
  }

  @Override
  public Snapshot getSnapshot() {
    return sample.getSnapshot();
  }

  /** Cumulative counts per bound of {@link #BOUNDS_SECONDS}, then the +Inf count. */
  long[] cumulativeCounts() {
    long[] cumulative = new long[counts.length];
    long running = 0;
    for (int i = 0; i < counts.length; i++) {
      running += counts[i].sum();
      cumulative[i] = running;
    }
    return cumulative;
  }

  double sumSeconds() {
    return sumNanos.sum() / 1e9;
  }
}
