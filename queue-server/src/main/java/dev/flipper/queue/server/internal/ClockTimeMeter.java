package dev.flipper.queue.server.internal;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Instant;

/**
 * Lets Bucket4j read time from a {@link Clock}, so tests can drive rate limits with a manual clock.
 */
final class ClockTimeMeter implements TimeMeter {
  private final Clock clock;

  ClockTimeMeter(Clock clock) {
    this.clock = clock;
  }

  @Override
  public long currentTimeNanos() {
    Instant now = clock.instant();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  @Override
  public boolean isWallClockBased() {
    return true;
  }
}
