package dev.flipper.queue.worker;

import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a failed job waits before its next attempt, from the attempt number that failed (1 = the
 * first attempt). The delay travels in the failure ack ({@code retryDelayMillis}); when no attempt
 * is left the job becomes FAILED whatever the delay. Implementations must be thread-safe; a lambda
 * is a custom policy.
 */
@FunctionalInterface
public interface RetryPolicy {

  Duration delayAfter(int failedAttempt);

  /** Retry at once. */
  static RetryPolicy immediate() {
    return attempt -> Duration.ZERO;
  }

  /** The same delay after every failure. */
  static RetryPolicy fixed(Duration delay) {
    requireNonNegative(delay, "delay");
    return attempt -> delay;
  }

  /**
   * {@code step × (failedAttempt − 1)}: 0 after the first failure, then one step more each time.
   * This is PinLater's example worker with a step of 1 s.
   */
  static RetryPolicy linear(Duration step) {
    requireNonNegative(step, "step");
    return attempt -> step.multipliedBy(Math.max(0, attempt - 1));
  }

  /**
   * {@code base × 2^(failedAttempt − 1)}, at most {@code max}, then spread by ±{@code jitter}
   * (0..1, e.g. 0.2 for ±20%) so that jobs that failed together do not all come back together.
   */
  static RetryPolicy exponential(Duration base, Duration max, double jitter) {
    requireNonNegative(base, "base");
    requireNonNegative(max, "max");
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException(
          "jitter must be 0..1 (a fraction of the delay), was " + jitter);
    }
    return attempt -> {
      int doublings = Math.min(Math.max(0, attempt - 1), 40);
      double millis = Math.min((double) max.toMillis(), base.toMillis() * Math.pow(2, doublings));
      double spread =
          jitter == 0 ? 1 : 1 + jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
      return Duration.ofMillis(Math.round(millis * spread));
    };
  }

  private static void requireNonNegative(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(
          "retry " + name + " must be >= 0, was " + DurationText.format(value));
    }
  }
}
