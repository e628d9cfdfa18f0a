package dev.flipper.queue.server.internal;

import io.github.bucket4j.Bucket;

/**
 * The rate limiter's answer to one dequeue: refused, or allowed to return up to {@link #limit()}
 * jobs. After the dequeue, {@link #charge(int)} must be called once with the number of jobs
 * actually returned.
 */
final class Admission {
  static final Admission REFUSED = new Admission(0, null);

  private final int limit;
  private final Bucket bucket;

  private Admission(int limit, Bucket bucket) {
    this.limit = limit;
    this.bucket = bucket;
  }

  static Admission unlimited(int requested) {
    return new Admission(requested, null);
  }

  /** Admitted against {@code bucket}, which has already been charged one token. */
  static Admission limited(int limit, Bucket bucket) {
    return new Admission(limit, bucket);
  }

  boolean refused() {
    return limit == 0;
  }

  int limit() {
    return limit;
  }

  /**
   * Charges the jobs delivered. Admission took one token; an empty dequeue gives it back, a larger
   * one takes the rest, possibly driving the bucket into debt ("pay later": the next dequeue waits
   * for the refill).
   */
  void charge(int delivered) {
    if (bucket == null) {
      return;
    }
    if (delivered == 0) {
      bucket.addTokens(1);
    } else if (delivered > 1) {
      bucket.consumeIgnoringRateLimits(delivered - 1L);
    }
  }
}
