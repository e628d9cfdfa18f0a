package dev.flipper.workflow.scheduler.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Daylight saving in Europe/Berlin, 2026: clocks go forward on 29 March at 01:00Z (02:00 CET
 * becomes 03:00 CEST) and back on 25 October at 01:00Z (03:00 CEST becomes 02:00 CET). The rule
 * (see {@link CronRecurrence}): a wall-clock slot fires at the first instant the clock reaches it,
 * once.
 */
class CronRecurrenceDstTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static List<Instant> slots(String cron, String from, String to) {
    return Slots.between(
        CronRecurrence.parse(cron, BERLIN), Instant.parse(from), Instant.parse(to), 10_000);
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
    List<Instant> day =
        slots("0 * * * *", "2026-03-28T23:00:00Z", "2026-03-29T21:59:59Z"); // local 00:00-23:59
    assertThat(day).hasSize(23).doesNotHaveDuplicates().isSorted();
    assertThat(day)
        .contains(
            Instant.parse("2026-03-29T00:00:00Z"),
            Instant.parse("2026-03-29T01:00:00Z"),
            Instant.parse("2026-03-29T02:00:00Z"));
  }

  @Test
  void hourlyOnTheLongDayFiresEachWallClockHourOnce() {
    List<Instant> day =
        slots("0 * * * *", "2026-10-24T22:00:00Z", "2026-10-25T22:59:59Z"); // local 00:00-23:59
    assertThat(day).hasSize(24).doesNotHaveDuplicates().isSorted();
    // 02:00 CEST (00:00Z) fires; 02:00 CET (01:00Z) is the same wall-clock time and does not; 03:00
    // CET is 02:00Z.
    assertThat(day)
        .contains(Instant.parse("2026-10-25T00:00:00Z"), Instant.parse("2026-10-25T02:00:00Z"))
        .doesNotContain(Instant.parse("2026-10-25T01:00:00Z"));
  }

  @Test
  void fromInsideTheRepeatedHourTheNextSlotIsAfterTheHourItRepeats() {
    CronRecurrence hourly = CronRecurrence.parse("0 * * * *", BERLIN);
    Instant secondHalfPast2 = Instant.parse("2026-10-25T01:30:00Z"); // 02:30 CET
    assertThat(hourly.nextAfter(secondHalfPast2)).contains(Instant.parse("2026-10-25T02:00:00Z"));
    assertThat(hourly.lastAtOrBefore(secondHalfPast2))
        .contains(Instant.parse("2026-10-25T00:00:00Z"));
    CronRecurrence daily = CronRecurrence.parse("30 2 * * *", BERLIN);
    assertThat(daily.nextAfter(secondHalfPast2)).contains(Instant.parse("2026-10-26T01:30:00Z"));
    assertThat(daily.lastAtOrBefore(secondHalfPast2))
        .contains(Instant.parse("2026-10-25T00:30:00Z"));
  }

  @Test
  void quarterHoursAcrossBothTransitionsNeverRepeatOrGoBack() {
    for (String[] range :
        new String[][] {
          {"2026-03-28T22:00:00Z", "2026-03-29T04:00:00Z"},
          {"2026-10-24T22:00:00Z", "2026-10-25T04:00:00Z"}
        }) {
      List<Instant> slots = slots("*/15 * * * *", range[0], range[1]);
      assertThat(slots).doesNotHaveDuplicates().isSorted();
      for (int i = 1; i < slots.size(); i++) {
        Duration gap = Duration.between(slots.get(i - 1), slots.get(i));
        assertThat(gap).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(75));
      }
    }
  }

  @Test
  @Tag("slow")
  void nextAndLastAgreeAtEveryMinuteOfBothTransitionDays() {
    for (String cron : new String[] {"30 2 * * *", "0 * * * *", "*/7 1-3 * * *", "15 3 * * 0"}) {
      CronRecurrence r = CronRecurrence.parse(cron, BERLIN);
      List<Instant> starts =
          List.of(Instant.parse("2026-03-28T20:00:00Z"), Instant.parse("2026-10-24T20:00:00Z"));
      for (Instant start : starts) {
        for (Instant t = start;
            t.isBefore(start.plus(Duration.ofHours(12)));
            t = t.plusSeconds(60 + 7)) {
          Instant next = r.nextAfter(t).orElseThrow();
          Instant last = r.lastAtOrBefore(t).orElseThrow();
          assertThat(next).as("%s next after %s", cron, t).isAfter(t);
          assertThat(last).as("%s last at or before %s", cron, t).isBeforeOrEqualTo(t);
          assertThat(r.nextAfter(last))
              .as("%s: no slot between %s and %s", cron, last, next)
              .contains(next);
          assertThat(r.lastAtOrBefore(next)).contains(next);
          assertThat(r.lastAtOrBefore(next.minusMillis(1))).contains(last);
        }
      }
    }
  }

  @Test
  void midnightThatDoesNotExistFiresAtTheTransition() {
    // Sao Paulo, 4 November 2018: 00:00 (-03:00) became 01:00 (-02:00); midnight did not exist.
    List<Instant> days =
        Slots.between(
            CronRecurrence.parse("@daily", ZoneId.of("America/Sao_Paulo")),
            Instant.parse("2018-11-02T12:00:00Z"),
            Instant.parse("2018-11-05T12:00:00Z"),
            100);
    assertThat(days)
        .containsExactly(
            Instant.parse("2018-11-03T03:00:00Z"),
            Instant.parse("2018-11-04T03:00:00Z"),
            Instant.parse("2018-11-05T02:00:00Z"));
  }

  @Test
  void halfHourChangesKeepSlotsInOrderWithoutRepeats() {
    // Lord Howe Island moves its clocks by 30 minutes: 02:00 -> 02:30 on 4 October 2026, back on 5
    // April 2026.
    ZoneId lordHowe = ZoneId.of("Australia/Lord_Howe");
    for (String cron : new String[] {"*/10 * * * *", "15 2 * * *", "0,20,40 1-3 * * *"}) {
      CronRecurrence r = CronRecurrence.parse(cron, lordHowe);
      for (String from : new String[] {"2026-04-04T12:00:00Z", "2026-10-03T12:00:00Z"}) {
        List<Instant> slots =
            Slots.between(
                r, Instant.parse(from), Instant.parse(from).plus(Duration.ofDays(1)), 1000);
        assertThat(slots).as("%s from %s", cron, from).isSorted().doesNotHaveDuplicates();
        for (Instant slot : slots) {
          assertThat(r.lastAtOrBefore(slot)).contains(slot);
          assertThat(r.nextAfter(slot.minusMillis(1))).contains(slot);
        }
      }
    }
    // 02:15 does not exist on 4 October: it fires at the transition, 02:30 local (15:30Z on the
    // 3rd).
    assertThat(
            Slots.between(
                CronRecurrence.parse("15 2 * * *", lordHowe),
                Instant.parse("2026-10-03T12:00:00Z"),
                Instant.parse("2026-10-04T12:00:00Z"),
                10))
        .containsExactly(Instant.parse("2026-10-03T15:30:00Z"));
  }

  @Test
  void everyCountsElapsedTimeSoTheLongDayHas25HourlySlots() {
    Recurrence hourly =
        new EveryRecurrence(Instant.parse("2026-01-01T00:00:00Z"), Duration.ofHours(1));
    List<Instant> day =
        Slots.between(
            hourly,
            Instant.parse("2026-10-24T22:00:00Z"),
            Instant.parse("2026-10-25T22:59:59Z"),
            100);
    assertThat(day).hasSize(25);
    List<Instant> expected = new ArrayList<>();
    for (int h = 0; h < 25; h++) {
      expected.add(Instant.parse("2026-10-24T22:00:00Z").plus(Duration.ofHours(h)));
    }
    assertThat(day).isEqualTo(expected);
  }
}
