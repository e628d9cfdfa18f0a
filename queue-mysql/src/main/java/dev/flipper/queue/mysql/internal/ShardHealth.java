package dev.flipper.queue.mysql.internal;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A circuit breaker for one shard: after a connection failure the shard reports unhealthy, and
 * calls fail fast, for a cool-down; the first call after it tries the database again. Thread-safe.
 */
public final class ShardHealth {
  private final long cooldownNanos;
  private final LongSupplier nanoClock;
  private volatile long unhealthyUntilNanos;
  private volatile boolean failed;
  private volatile String lastFailure = "";

  public ShardHealth(Duration cooldown) {
    this(cooldown, System::nanoTime);
  }

  ShardHealth(Duration cooldown, LongSupplier nanoClock) {
    this.cooldownNanos = cooldown.toNanos();
    this.nanoClock = nanoClock;
  }

  /** False from a connection failure until the cool-down has passed. */
  public boolean healthy() {
    return !failed || nanoClock.getAsLong() - unhealthyUntilNanos >= 0;
  }

  public void markUnreachable(String reason) {
    lastFailure = reason;
    unhealthyUntilNanos = nanoClock.getAsLong() + cooldownNanos;
    failed = true;
  }

  public void markReachable() {
    if (failed) {
      failed = false;
    }
  }

  public String lastFailure() {
    return lastFailure;
  }

  /** Milliseconds until the next try is allowed; 0 when healthy. */
  public long millisUntilRetry() {
    return healthy() ? 0 : Math.max(0, (unhealthyUntilNanos - nanoClock.getAsLong()) / 1_000_000);
  }
}
