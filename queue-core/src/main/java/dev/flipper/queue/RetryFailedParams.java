package dev.flipper.queue;

import java.time.Instant;

/**
 * Arguments of {@link QueueService#retryFailed}: move up to {@code limit} FAILED jobs of one
 * priority back to PENDING with {@code attemptsToAllow} attempts remaining, runnable at {@code
 * runAfter} (null = now).
 */
public record RetryFailedParams(
    String queue, int priority, int attemptsToAllow, Instant runAfter, int limit) {
  public static RetryFailedParams of(String queue) {
    return new RetryFailedParams(queue, 1, 1, null, 1000);
  }
}
