package dev.flipper.workflow.tokens;

import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Runs a read-then-modify step again when another writer got there first (VERSION_CONFLICT, or
 * NOT_FOUND for a token deleted since it was read). The step must re-read everything it writes. A
 * short random pause between tries spreads out writers that collide on the same token (a join job
 * with many parents).
 */
public final class ConflictRetry {
  /** Enough for a join with many parents finishing at once on a few workers. */
  public static final int DEFAULT_TRIES = 200;

  /**
   * Conflicts retried since the class was loaded, by every caller in the process: for measurements.
   */
  private static final AtomicLong RETRIES = new AtomicLong();

  private ConflictRetry() {}

  /**
   * Conflicts retried so far in this process (all steps, all threads); a counter for benchmarks and
   * tests.
   */
  public static long retries() {
    return RETRIES.get();
  }

  public static <T> T run(String what, Supplier<T> step) {
    return run(what, DEFAULT_TRIES, step);
  }

  public static <T> T run(String what, int tries, Supplier<T> step) {
    TokenException last = null;
    for (int i = 0; i < tries; i++) {
      try {
        return step.get();
      } catch (TokenException e) {
        if (!isConflict(e)) {
          throw e;
        }
        last = e;
        RETRIES.incrementAndGet();
        pause(i);
      }
    }
    throw new TokenException(
        TokenErrorCode.VERSION_CONFLICT,
        what + ": still conflicting after " + tries + " tries (" + last.getMessage() + ")",
        last);
  }

  public static boolean isConflict(TokenException e) {
    return e.errorCode() == TokenErrorCode.VERSION_CONFLICT
        || e.errorCode() == TokenErrorCode.NOT_FOUND;
  }

  private static void pause(int tryIndex) {
    if (tryIndex == 0) {
      return; // the first re-read usually sees the winner's change already
    }
    long maxMicros = Math.min(20_000, 200L << Math.min(tryIndex, 7));
    try {
      long micros = ThreadLocalRandom.current().nextLong(maxMicros);
      Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
