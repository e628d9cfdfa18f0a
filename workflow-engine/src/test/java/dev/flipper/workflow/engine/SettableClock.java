package dev.flipper.workflow.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock the test moves; shared by the token master and the engine so leases and records agree.
 */
public final class SettableClock extends Clock {
  private final AtomicLong millis;

  public SettableClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  public void advance(Duration duration) {
    millis.addAndGet(duration.toMillis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }
}
