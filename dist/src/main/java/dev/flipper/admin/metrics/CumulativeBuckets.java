package dev.flipper.admin.metrics;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.util.concurrent.atomic.LongAdder;

/**
 * A timer's or histogram's reservoir that also counts every value into fixed cumulative buckets, so
 * /metrics can export a real Prometheus histogram (rates and {@code histogram_quantile} over any
 * window), while /stats.txt keeps the recent percentiles of the decaying sample. Values arrive in
 * Dropwizard's unit (nanoseconds for timers, as given for histograms); bounds and sum are in the
 * exported base unit (seconds, bytes). Thread-safe.
 */
public final class CumulativeBuckets implements Reservoir {
  /** Request latencies: 0.5 ms to 30 s, roughly ×2.5 apart. */
  static final double[] LATENCY_SECONDS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  /** Waits in a queue: 5 ms (long-poll pickup) to 1 h (a backlog). */
  static final double[] DELAY_SECONDS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600
  };

  /** Job bodies: 64 B to 16 MiB (the default frame limit), ×4 apart. */
  static final double[] SIZE_BYTES = {
    64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216
  };

  private final double[] bounds;
  private final double valuesPerUnit;
  private final Reservoir sample = new ExponentiallyDecayingReservoir();
  private final LongAdder[] counts;
  private final LongAdder sum = new LongAdder();

  /**
   * @param bounds upper bounds in the exported unit, ascending
   * @param valuesPerUnit how many recorded values make one exported unit (1e9 for nanoseconds to
   *     seconds, 1 for bytes)
   */
  CumulativeBuckets(double[] bounds, double valuesPerUnit) {
    this.bounds = bounds.clone();
    this.valuesPerUnit = valuesPerUnit;
    this.counts = new LongAdder[bounds.length + 1];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  /** Buckets for a timer (values in nanoseconds) with these bounds in seconds. */
  static CumulativeBuckets seconds(double[] bounds) {
    return new CumulativeBuckets(bounds, 1e9);
  }

  @Override
  public void update(long value) {
    sample.update(value);
    sum.add(value);
    double inUnit = value / valuesPerUnit;
    int bucket = 0;
    while (bucket < bounds.length && inUnit > bounds[bucket]) {
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

  /** The upper bounds in the exported unit, without +Inf. */
  double[] bounds() {
    return bounds.clone();
  }

  /** Cumulative counts per bound of {@link #bounds}, then the +Inf count. */
  long[] cumulativeCounts() {
    long[] cumulative = new long[counts.length];
    long running = 0;
    for (int i = 0; i < counts.length; i++) {
      running += counts[i].sum();
      cumulative[i] = running;
    }
    return cumulative;
  }

  /** The sum of all values in the exported unit. */
  double sumInUnit() {
    return sum.sum() / valuesPerUnit;
  }
}
