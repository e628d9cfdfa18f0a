package dev.flipper.queue.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until a test moves it, so time-dependent behaviour is tested without
 * sleeping. Millisecond resolution. Thread-safe.
 */
public final class MutableClock extends Clock {
  private final AtomicLong millis;
  private final ZoneId zone;

  private MutableClock(AtomicLong millis, ZoneId zone) {
    this.millis = millis;
    this.zone = zone;
  }

  public static MutableClock startingAt(Instant start) {
    return new MutableClock(new AtomicLong(start.toEpochMilli()), ZoneOffset.UTC);
  }

  public void advance(Duration duration) {
    millis.addAndGet(duration.toMillis());
  }

  public void advanceMillis(long delta) {
    millis.addAndGet(delta);
  }

  public void set(Instant instant) {
    millis.set(instant.toEpochMilli());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** A view in another zone that shares this clock's time. */
  @Override
  public Clock withZone(ZoneId newZone) {
    return new MutableClock(millis, newZone);
  }

  @Override
  public String toString() {
    return "MutableClock(" + instant() + ")";
  }
}
