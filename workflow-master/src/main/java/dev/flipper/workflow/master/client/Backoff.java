package dev.flipper.workflow.master.client;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Reconnect delays: exponential from {@code initial}, doubled per failed attempt, jittered by ±50%
 * and capped at {@code max} (after jitter, so the cap is a real ceiling). Immutable and
 * thread-safe.
 */
record Backoff(Duration initial, Duration max) {

  /** The delay before attempt {@code attempt + 1}, after {@code attempt} (>= 1) failures. */
  Duration delayAfter(int attempt, DoubleSupplier random) {
    double base = initial.toMillis() * Math.pow(2, Math.min(attempt - 1, 30));
    double jittered = base * (0.5 + random.getAsDouble());
    return Duration.ofMillis((long) Math.min(max.toMillis(), jittered));
  }
}
