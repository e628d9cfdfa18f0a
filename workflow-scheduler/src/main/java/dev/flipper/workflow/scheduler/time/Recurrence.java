package dev.flipper.workflow.scheduler.time;

import dev.flipper.workflow.definition.Schedule;
import java.time.Instant;
import java.util.Optional;

/**
 * The instants ("slots") at which a schedule starts an instance, as a pure function of time: no
 * clock, no state. Implementations are immutable and thread-safe.
 */
public interface Recurrence {

  /** The first slot strictly after {@code t}; empty if the schedule never fires again. */
  Optional<Instant> nextAfter(Instant t);

  /** The last slot at or before {@code t}; empty if there is none. */
  Optional<Instant> lastAtOrBefore(Instant t);

  /**
   * The recurrence of {@code schedule}.
   *
   * @param defaultStart the reference {@code every} counts from when the schedule names no {@code
   *     start} (the time the schedule was first stored); ignored by cron schedules
   * @throws IllegalArgumentException if a cron expression is not accepted by the cron library
   */
  static Recurrence of(Schedule schedule, Instant defaultStart) {
    if (schedule.every().isPresent()) {
      return new EveryRecurrence(schedule.start().orElse(defaultStart), schedule.every().get());
    }
    return CronRecurrence.parse(schedule.cron().orElseThrow(), schedule.timezone());
  }
}
