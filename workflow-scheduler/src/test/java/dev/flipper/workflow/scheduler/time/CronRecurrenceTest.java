package dev.flipper.workflow.scheduler.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CronRecurrenceTest {
  private static final ZoneId UTC = ZoneOffset.UTC;

  private static List<Instant> slots(String cron, String from, String to) {
    return Slots.between(
        CronRecurrence.parse(cron, UTC), Instant.parse(from), Instant.parse(to), 10_000);
  }

  @Test
  void fiveFieldsAreMinuteHourDayMonthWeekday() {
    assertThat(slots("0 3 * * *", "2026-11-01T00:00:00Z", "2026-11-03T23:59:59Z"))
        .containsExactly(
            Instant.parse("2026-11-01T03:00:00Z"),
            Instant.parse("2026-11-02T03:00:00Z"),
            Instant.parse("2026-11-03T03:00:00Z"));
  }

  @Test
  void sixFieldsStartWithSeconds() {
    assertThat(slots("*/20 0 3 * * *", "2026-11-01T03:00:00Z", "2026-11-01T03:00:59Z"))
        .containsExactly(
            Instant.parse("2026-11-01T03:00:00Z"),
            Instant.parse("2026-11-01T03:00:20Z"),
            Instant.parse("2026-11-01T03:00:40Z"));
  }

  @Test
  void bothDayFieldsRestrictedMeansEitherAsInUnixCron() {
    List<Instant> slots = slots("0 0 13 * 5", "2026-11-01T00:00:00Z", "2026-12-31T00:00:00Z");
    assertThat(slots)
        .allMatch(
            s ->
                s.atZone(UTC).getDayOfMonth() == 13
                    || s.atZone(UTC).getDayOfWeek() == DayOfWeek.FRIDAY);
    assertThat(slots)
        .contains(Instant.parse("2026-12-13T00:00:00Z"), Instant.parse("2026-11-06T00:00:00Z"));
    assertThat(slots).hasSize(9); // 8 Fridays and 13 Dec; 13 Nov is a Friday and fires once
  }

  @Test
  void sundayIsZeroOrSevenAndNamesWork() {
    String from = "2026-11-01T00:00:01Z";
    assertThat(slots("0 0 * * 0", from, "2026-11-15T00:00:00Z"))
        .isEqualTo(slots("0 0 * * 7", from, "2026-11-15T00:00:00Z"))
        .isEqualTo(slots("0 0 * * SUN", from, "2026-11-15T00:00:00Z"))
        .containsExactly(
            Instant.parse("2026-11-08T00:00:00Z"), Instant.parse("2026-11-15T00:00:00Z"));
  }

  @Test
  void macros() {
    assertThat(slots("@daily", "2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z")).hasSize(2);
    assertThat(slots("@hourly", "2026-11-01T00:00:00Z", "2026-11-01T02:00:00Z")).hasSize(3);
    assertThat(slots("@weekly", "2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z")).hasSize(5);
    assertThat(slots("@MONTHLY", "2026-11-01T00:00:00Z", "2027-10-31T00:00:00Z")).hasSize(12);
  }

  @Test
  void lastDayOfMonthAndNthWeekday() {
    assertThat(slots("0 0 L * *", "2027-02-01T00:00:00Z", "2027-03-01T00:00:00Z"))
        .containsExactly(Instant.parse("2027-02-28T00:00:00Z"));
    assertThat(slots("0 0 * * 1#2", "2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z"))
        .containsExactly(Instant.parse("2026-11-09T00:00:00Z"));
  }

  @Test
  void lastDayVariants() {
    assertThat(slots("0 0 L-3 * *", "2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z"))
        .containsExactly(Instant.parse("2026-11-27T00:00:00Z"));
    assertThat(slots("0 0 LW * *", "2027-01-01T00:00:00Z", "2027-01-31T23:00:00Z"))
        .containsExactly(Instant.parse("2027-01-29T00:00:00Z")); // 31 January 2027 is a Sunday
    assertThat(slots("0 0 * * SUNL", "2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z"))
        .containsExactly(Instant.parse("2026-11-29T00:00:00Z"));
  }

  @Test
  void slotsAreStrictlyAfterAndAtOrBeforeEvenBetweenSeconds() {
    CronRecurrence everySecond = CronRecurrence.parse("* * * * * *", UTC);
    Instant t = Instant.parse("2026-11-01T10:00:00.500Z");
    assertThat(everySecond.nextAfter(t)).contains(Instant.parse("2026-11-01T10:00:01Z"));
    assertThat(everySecond.lastAtOrBefore(t)).contains(Instant.parse("2026-11-01T10:00:00Z"));
    Instant exact = Instant.parse("2026-11-01T10:00:00Z");
    assertThat(everySecond.nextAfter(exact)).contains(Instant.parse("2026-11-01T10:00:01Z"));
    assertThat(everySecond.lastAtOrBefore(exact)).contains(exact);
  }

  @Test
  void anExpressionThatNeverFiresHasNoNextSlot() {
    assertThat(
            CronRecurrence.parse("0 0 31 2 *", UTC)
                .nextAfter(Instant.parse("2026-01-01T00:00:00Z")))
        .isEmpty();
  }

  @Test
  void invalidExpressionsNameTheExpressionAndTheProblem() {
    assertThat(CronExpressions.problem("61 * * * *"))
        .get()
        .asString()
        .contains("cron '61 * * * *' is not valid")
        .contains("61");
    assertThat(CronExpressions.problem("* * *"))
        .get()
        .asString()
        .contains("must have 5 fields")
        .contains("got 3");
    assertThat(CronExpressions.problem("@fortnightly")).get().asString().contains("is not a macro");
    assertThat(CronExpressions.problem("0 3 * * *")).isEmpty();
    assertThat(CronExpressions.problem("0 0 ? * ?"))
        .get()
        .asString()
        .contains("'?' in both day fields");
    assertThat(CronExpressions.problem("0 0 30 2 *")).get().asString().contains("never fires");
    assertThat(CronExpressions.problem("0 0 29 2 *")).isEmpty();
    assertThatThrownBy(() -> CronRecurrence.parse("0 25 * * *", UTC))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aZoneShiftsTheWallClock() {
    CronRecurrence tokyo = CronRecurrence.parse("0 9 * * *", ZoneId.of("Asia/Tokyo"));
    assertThat(tokyo.nextAfter(Instant.parse("2026-11-01T00:00:00Z")))
        .contains(Instant.parse("2026-11-02T00:00:00Z"));
  }
}
