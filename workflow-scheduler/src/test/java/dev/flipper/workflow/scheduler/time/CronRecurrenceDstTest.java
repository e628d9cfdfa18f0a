package dev.flipper.workflow.scheduler.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Daylight saving in Europe/Berlin, 2026: clocks go forward on 29 March at 01:00Z (02:00 CET becomes 03:00 CEST)
 * and back on 25 October at 01:00Z (03:00 CEST becomes 02:00 CET). The rule (see {@link CronRecurrence}): a
 * wall-clock slot fires at the first instant the clock reaches it, once.
 */
class CronRecurrenceDstTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static List<Instant> slots(String cron, String from, String to) {
    return Slots.between(CronRecurrence.parse(cron, BERLIN), Instant.parse(from), Instant.parse(to), 10_000);
  }

  @Test
  void aDailySlotInTheSkippedHourFiresOnceAtTheTransition() {
    assertThat(slots("30 2 * * *", "2026-03-27T12:00:00Z", "2026-03-31T12:00:00Z"))
        .containsExactly(
            Instant.parse("2026-03-28T01:30:00Z"), // 02:30 CET
            Instant.parse("2026-03-29T01:00:00Z"), // 02:30 does not exist: fires at 03:00 CEST
            Instant.parse("2026-03-30T00:30:00Z"), // 02:30 CEST
            Instant.parse("2026-03-31T00:30:00Z"));
  }

  @Test
  void aDailySlotInTheRepeatedHourFiresOnceAtItsFirstOccurrence() {
    assertThat(slots("30 2 * * *", "2026-10-23T12:00:00Z", "2026-10-26T12:00:00Z"))
        .containsExactly(
            Instant.parse("2026-10-24T00:30:00Z"), // 02:30 CEST
            Instant.parse("2026-10-25T00:30:00Z"), // 02:30 CEST, not again at 02:30 CET (01:30Z)
            Instant.parse("2026-10-26T01:30:00Z")); // 02:30 CET
  }

  @Test
  void hourlyOnTheShortDayFires23TimesAndTheMissingHourMergesWithThree() {
    List<Instant> day = slots("0 * * * *", "2026-03-28T23:00:00Z", "2026-03-29T21:59:59Z"); // local 00:00-23:59
    assertThat(day).hasSize(23).doesNotHaveDuplicates().isSorted();
    assertThat(day).contains(Instant.parse("2026-03-29T00:00:00Z"), Instant.parse("2026-03-29T01:00:00Z"),
        Instant.parse("2026-03-29T02:00:00Z"));
  }

  @Test
  void hourlyOnTheLongDayFiresEachWallClockHourOnce() {
    List<Instant> day = slots("0 * * * *", "2026-10-24T22:00:00Z", "2026-10-25T22:59:59Z"); // local 00:00-23:59
    assertThat(day).hasSize(24).doesNotHaveDuplicates().isSorted();
    // 02:00 CEST (00:00Z) fires; 02:00 CET (01:00Z) is the same wall-clock time and does not; 03:00 CET is 02:00Z.
    assertThat(day).contains(Instant.parse("2026-10-25T00:00:00Z"), Instant.parse("2026-10-25T02:00:00Z"))
        .doesNotContain(Instant.parse("2026-10-25T01:00:00Z"));
  }

  @Test
  void fromInsideTheRepeatedHourTheNextSlotIsAfterTheHourItRepeats() {
    CronRecurrence hourly = CronRecurrence.parse("0 * * * *", BERLIN);
    Instant secondHalfPast2 = Instant.parse("2026-10-25T01:30:00Z"); // 02:30 CET
    assertThat(hourly.nextAfter(secondHalfPast2)).contains(Instant.parse("2026-10-25T02:00:00Z"));
    assertThat(hourly.lastAtOrBefore(secondHalfPast2)).contains(Instant.parse("2026-10-25T00:00:00Z"));
    CronRecurrence daily = CronRecurrence.parse("30 2 * * *", BERLIN);
    assertThat(daily.nextAfter(secondHalfPast2)).contains(Instant.parse("2026-10-26T01:30:00Z"));
    assertThat(daily.lastAtOrBefore(secondHalfPast2)).contains(Instant.parse("2026-10-25T00:30:00Z"));
  }

  @Test
  void quarterHoursAcrossBothTransitionsNeverRepeatOrGoBack() {
    for (String[] range : new String[][] {
        {"2026-03-28T22:00:00Z", "2026-03-29T04:00:00Z"}, {"2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z"}}) {
      List<Instant> slots = slots("*/15 * * * *", range[0], range[1]);
      assertThat(slots).doesNotHaveDuplicates().isSorted();
      for (int i = 1; i < slots.size(); i++) {
        Duration gap = Duration.between(slots.get(i - 1), slots.get(i));
        assertThat(gap).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(75));
      }
    }
  }

  @Test
  void nextAndLastAgreeAtEveryMinuteOfBothTransitionDays() {
    for (String cron : new String[] {"30 2 * * *", "0 * * * *", "*/7 1-3 * * *", "15 3 * * 0"}) {
      CronRecurrence r = CronRecurrence.parse(cron, BERLIN);
      List<Instant> starts = List.of(Instant.parse("2026-03-28T20:00:00Z"), Instant.parse("2026-10-24T20:00:00Z"));
      for (Instant start : starts) {
        for (Instant t = start; t.isBefore(start.plus(Duration.ofHours(12))); t = t.plusSeconds(60 + 7)) {
          Instant next = r.nextAfter(t).orElseThrow();
          Instant last = r.lastAtOrBefore(t).orElseThrow();
          assertThat(next).as("%s next after %s", cron, t).isAfter(t);
          assertThat(last).as("%s last at or before %s", cron, t).isBeforeOrEqualTo(t);
          assertThat(r.nextAfter(last)).as("%s: no slot between %s and %s", cron, last, next).contains(next);
          assertThat(r.lastAtOrBefore(next)).contains(next);
          assertThat(r.lastAtOrBefore(next.minusMillis(1))).contains(last);
        }
      }
    }
  }

  @Test
  void everyCountsElapsedTimeSoTheLongDayHas25HourlySlots() {
    Recurrence hourly = new EveryRecurrence(Instant.parse("2026-01-01T00:00:00Z"), Duration.ofHours(1));
    List<Instant> day = Slots.between(hourly, Instant.parse("2026-10-24T22:00:00Z"),
        Instant.parse("2026-10-25T22:59:59Z"), 100);
    assertThat(day).hasSize(25);
    List<Instant> expected = new ArrayList<>();
    for (int h = 0; h < 25; h++) {
      expected.add(Instant.parse("2026-10-24T22:00:00Z").plus(Duration.ofHours(h)));
    }
    assertThat(day).isEqualTo(expected);
  }
}
