package dev.flipper.workflow.scheduler.time;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * Slots {@code start + k × every} for every integer k ≥ 0: elapsed time, so a daylight-saving
 * change moves nothing (an hourly schedule fires 25 times on the day clocks go back). Works in
 * whole milliseconds, as definitions do. Immutable and thread-safe.
 */
public record EveryRecurrence(Instant start, Duration every) implements Recurrence {

  public EveryRecurrence {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(every, "every");
    if (every.toMillis() <= 0) {
      throw new IllegalArgumentException("every must be at least 1ms, got " + every);
    }
    start = start.truncatedTo(ChronoUnit.MILLIS);
  }

  @Override
  public Optional<Instant> nextAfter(Instant t) {
    if (t.isBefore(start)) {
      return Optional.of(start);
    }
    // Slots are whole milliseconds, so truncating t cannot skip one.
    long k = Math.floorDiv(t.toEpochMilli() - start.toEpochMilli(), every.toMillis()) + 1;
    return Optional.of(slot(k));
  }

  @Override
  public Optional<Instant> lastAtOrBefore(Instant t) {
    if (t.isBefore(start)) {
      return Optional.empty();
    }
    return Optional.of(
        slot(Math.floorDiv(t.toEpochMilli() - start.toEpochMilli(), every.toMillis())));
  }

  private Instant slot(long k) {
    return Instant.ofEpochMilli(start.toEpochMilli() + k * every.toMillis());
  }
}
