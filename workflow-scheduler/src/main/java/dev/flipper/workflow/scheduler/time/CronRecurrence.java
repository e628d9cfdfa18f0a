package dev.flipper.workflow.scheduler.time;

import com.cronutils.model.time.ExecutionTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The slots of a cron expression in a time zone. Immutable and thread-safe.
 *
 * <p><b>Daylight saving.</b> A cron slot is a wall-clock time (a local date and time). It fires
 * <em>at the first instant at which the zone's wall clock reaches it</em>, and each wall-clock time
 * fires once. So:
 *
 * <ul>
 *   <li>A normal local time fires at its instant.
 *   <li>A local time that does not exist (clocks go forward, Berlin's 02:00-03:00 on the last
 *       Sunday of March) fires once, at the transition (03:00 CEST): {@code 30 2 * * *} runs at
 *       03:00 that day. If another slot falls on that instant too (the 03:00 of {@code 0 * * * *}),
 *       the two are one firing.
 *   <li>A local time that occurs twice (clocks go back, 02:00-03:00 on the last Sunday of October)
 *       fires once, at its first occurrence (CEST): {@code 30 2 * * *} runs once, and {@code 0 * *
 *       * *} runs 24 times that day with two hours between its 02:00 (CEST) and 03:00 (CET) runs.
 * </ul>
 *
 * <p>Cron counts wall-clock times; to repeat a fixed elapsed duration across a change, use {@code
 * every}. The rule keeps the slots in order (a later wall-clock time never fires earlier), so "the
 * next slot after t" is simply the first wall-clock slot the clock has not reached by t.
 * java.time's own gap rule (shift by the gap's length, 02:30 to 03:30) would not: in a zone with a
 * 30-minute gap it puts a shifted slot after a later one.
 *
 * <p>cron-utils is asked only about the wall-clock timeline (local times, computed as if in UTC,
 * which has no gaps), and this class maps wall-clock times to instants. Slots are whole seconds.
 */
public final class CronRecurrence implements Recurrence {

  private final String expression;
  private final ZoneId zone;
  private final List<ExecutionTime> times;

  private CronRecurrence(String expression, ZoneId zone, List<ExecutionTime> times) {
    this.expression = expression;
    this.zone = zone;
    this.times = times;
  }

  /**
   * The recurrence of {@code expression} read in {@code zone}.
   *
   * @throws IllegalArgumentException if the expression is not valid
   */
  public static CronRecurrence parse(String expression, ZoneId zone) {
    Objects.requireNonNull(zone, "zone");
    return new CronRecurrence(expression.strip(), zone, CronExpressions.parse(expression));
  }

  public String expression() {
    return expression;
  }

  public ZoneId zone() {
    return zone;
  }

  @Override
  public Optional<Instant> nextAfter(Instant t) {
    // The first wall-clock slot the clock has not reached by t. Right after clocks went back the
    // clock reads
    // earlier times again, but it has already reached everything up to the moment it went back.
    LocalDateTime reached = LocalDateTime.ofInstant(t, zone).truncatedTo(ChronoUnit.SECONDS);
    Optional<ZoneOffsetTransition> back = repeating(t);
    Optional<LocalDateTime> slot =
        back.isPresent()
            ? localAfter(back.get().getDateTimeBefore().minusSeconds(1))
            : localAfter(reached);
    return slot.map(this::firing);
  }

  @Override
  public Optional<Instant> lastAtOrBefore(Instant t) {
    Optional<ZoneOffsetTransition> back = repeating(t);
    Optional<LocalDateTime> slot =
        back.isPresent()
            ? localBefore(back.get().getDateTimeBefore())
            : localBefore(
                LocalDateTime.ofInstant(t, zone).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1));
    return slot.map(this::firing);
  }

  /** The instant wall-clock time {@code local} fires at: the first instant the clock reaches it. */
  Instant firing(LocalDateTime local) {
    List<ZoneOffset> offsets = zone.getRules().getValidOffsets(local);
    if (offsets.isEmpty()) {
      return zone.getRules().getTransition(local).getInstant();
    }
    ZoneOffsetTransition overlap = zone.getRules().getTransition(local);
    ZoneOffset first = overlap != null ? overlap.getOffsetBefore() : offsets.get(0);
    return local.toInstant(first);
  }

  /**
   * The fall-back transition whose repeated hour {@code t} lies in (clock reading earlier than
   * before).
   */
  private Optional<ZoneOffsetTransition> repeating(Instant t) {
    ZoneOffsetTransition last = zone.getRules().previousTransition(t.plusNanos(1));
    if (last == null || !last.isOverlap()) {
      return Optional.empty();
    }
    return LocalDateTime.ofInstant(t, zone).isBefore(last.getDateTimeBefore())
        ? Optional.of(last)
        : Optional.empty();
  }

  private Optional<LocalDateTime> localAfter(LocalDateTime local) {
    ZonedDateTime at = local.atZone(ZoneOffset.UTC);
    return times.stream()
        .map(time -> time.nextExecution(at))
        .flatMap(Optional::stream)
        .map(ZonedDateTime::toLocalDateTime)
        .min(Comparator.naturalOrder());
  }

  private Optional<LocalDateTime> localBefore(LocalDateTime local) {
    ZonedDateTime at = local.atZone(ZoneOffset.UTC);
    return times.stream()
        .map(time -> time.lastExecution(at))
        .flatMap(Optional::stream)
        .map(ZonedDateTime::toLocalDateTime)
        .max(Comparator.naturalOrder());
  }

  @Override
  public String toString() {
    return "cron '" + expression + "' in " + zone;
  }
}
