package dev.flipper.workflow.scheduler.time;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which slots a scheduler fires: the due slot with catch-up, and the slots of a backfill range.
 * Stateless.
 */
public final class Slots {

  private Slots() {}

  /**
   * The slot to fire now, or empty if {@code nextRun} is still in the future.
   *
   * <p>{@code nextRun} is the oldest slot not yet fired or skipped. Of the slots from {@code
   * nextRun} to {@code now}, the latest is on time and the others were missed (the scheduler was
   * down, or busy). With {@code catchUp = 0} the missed ones are skipped and the latest fires, as
   * in Pinball; with {@code catchUp = N} the N latest missed slots fire too, oldest first: this
   * returns the oldest of the {@code N + 1} latest slots, and the caller moves {@code nextRun} to
   * {@link Recurrence#nextAfter} of it, so the next call returns the next one. Cost: at most {@code
   * catchUp + 1} steps back from {@code now}, however long the scheduler was away.
   */
  public static Optional<Instant> due(
      Recurrence recurrence, Instant nextRun, Instant now, int catchUp) {
    Objects.requireNonNull(recurrence, "recurrence");
    if (catchUp < 0) {
      throw new IllegalArgumentException("catchUp must be at least 0, got " + catchUp);
    }
    if (nextRun.isAfter(now)) {
      return Optional.empty();
    }
    Instant oldest = null;
    int taken = 0;
    Optional<Instant> slot = recurrence.lastAtOrBefore(now);
    while (slot.isPresent() && slot.get().isAfter(nextRun) && taken < catchUp + 1) {
      oldest = slot.get();
      taken++;
      slot = recurrence.lastAtOrBefore(slot.get().minusNanos(1));
    }
    // nextRun itself is a slot (the schedule token only ever holds slots); it fires if the window
    // reaches it.
    return Optional.of(taken < catchUp + 1 ? nextRun : oldest);
  }

  /**
   * The slots from {@code from} to {@code to}, both included, oldest first (for a backfill).
   *
   * @throws IllegalArgumentException if there are more than {@code limit}, naming the range
   */
  public static List<Instant> between(Recurrence recurrence, Instant from, Instant to, int limit) {
    if (to.isBefore(from)) {
      throw new IllegalArgumentException(
          "the range ends (" + to + ") before it starts (" + from + ")");
    }
    List<Instant> slots = new ArrayList<>();
    Optional<Instant> slot = recurrence.nextAfter(from.minusNanos(1));
    while (slot.isPresent() && !slot.get().isAfter(to)) {
      if (slots.size() == limit) {
        throw new IllegalArgumentException(
            "the range "
                + from
                + " to "
                + to
                + " holds more than "
                + limit
                + " slots of "
                + recurrence
                + "; backfill a shorter range");
      }
      slots.add(slot.get());
      slot = recurrence.nextAfter(slot.get());
    }
    return slots;
  }
}
