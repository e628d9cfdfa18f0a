package dev.flipper.workflow.scheduler.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SlotsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Recurrence HOURLY = new EveryRecurrence(START, Duration.ofHours(1));

  private static Instant at(String time) {
    return Instant.parse("2026-01-01T" + time + "Z");
  }

  @Test
  void everyCountsFromItsStart() {
    Recurrence r =
        new EveryRecurrence(Instant.parse("2026-01-01T00:00:05Z"), Duration.ofSeconds(10));
    assertThat(r.nextAfter(Instant.parse("2025-12-31T00:00:00Z")))
        .contains(Instant.parse("2026-01-01T00:00:05Z"));
    // Pinball's test: 95 advances to 105 at now = 100 with a recurrence of 10.
    assertThat(r.nextAfter(Instant.parse("2026-01-01T00:01:40Z")))
        .contains(Instant.parse("2026-01-01T00:01:45Z"));
    assertThat(r.nextAfter(Instant.parse("2026-01-01T00:01:45Z")))
        .contains(Instant.parse("2026-01-01T00:01:55Z"));
    assertThat(r.lastAtOrBefore(Instant.parse("2026-01-01T00:01:45Z")))
        .contains(Instant.parse("2026-01-01T00:01:45Z"));
    assertThat(r.lastAtOrBefore(Instant.parse("2026-01-01T00:00:04Z"))).isEmpty();
  }

  @Test
  void nothingIsDueBeforeTheNextRun() {
    assertThat(Slots.due(HOURLY, at("03:00:00"), at("02:59:59"), 0)).isEmpty();
  }

  @Test
  void anOnTimeSlotIsDue() {
    assertThat(Slots.due(HOURLY, at("03:00:00"), at("03:00:00"), 0)).contains(at("03:00:00"));
    assertThat(Slots.due(HOURLY, at("03:00:00"), at("03:59:59"), 0)).contains(at("03:00:00"));
  }

  @Test
  void missedSlotsAreSkippedByDefault() {
    // Down from 03:00 to 07:30: the 07:00 slot fires, 03:00 to 06:00 are skipped, as in Pinball.
    assertThat(Slots.due(HOURLY, at("03:00:00"), at("07:30:00"), 0)).contains(at("07:00:00"));
  }

  @Test
  void catchUpFiresTheLatestMissedSlotsOldestFirst() {
    Instant nextRun = at("03:00:00");
    Instant now = at("07:30:00");
    Instant first = Slots.due(HOURLY, nextRun, now, 2).orElseThrow();
    assertThat(first).isEqualTo(at("05:00:00"));
    Instant second = Slots.due(HOURLY, HOURLY.nextAfter(first).orElseThrow(), now, 2).orElseThrow();
    assertThat(second).isEqualTo(at("06:00:00"));
    Instant third = Slots.due(HOURLY, HOURLY.nextAfter(second).orElseThrow(), now, 2).orElseThrow();
    assertThat(third).isEqualTo(at("07:00:00"));
    assertThat(Slots.due(HOURLY, HOURLY.nextAfter(third).orElseThrow(), now, 2)).isEmpty();
  }

  @Test
  void catchUpLargerThanTheMissedSlotsFiresThemAll() {
    assertThat(Slots.due(HOURLY, at("05:00:00"), at("07:30:00"), 10)).contains(at("05:00:00"));
  }

  @Test
  void catchUpCostDoesNotGrowWithTheOutage() {
    Recurrence everySecond = new EveryRecurrence(START, Duration.ofSeconds(1));
    assertThat(Slots.due(everySecond, START, START.plus(Duration.ofDays(3650)), 1))
        .contains(START.plus(Duration.ofDays(3650)).minusSeconds(1));
  }

  @Test
  void backfillListsTheSlotsOfARangeBothEndsIncluded() {
    assertThat(Slots.between(HOURLY, at("01:00:00"), at("03:00:00"), 10))
        .containsExactly(at("01:00:00"), at("02:00:00"), at("03:00:00"));
    assertThat(Slots.between(HOURLY, at("01:00:01"), at("01:59:59"), 10)).isEmpty();
    assertThatThrownBy(() -> Slots.between(HOURLY, at("00:00:00"), at("23:00:00"), 5))
        .hasMessageContaining("more than 5 slots");
    assertThatThrownBy(() -> Slots.between(HOURLY, at("02:00:00"), at("01:00:00"), 5))
        .hasMessageContaining("ends");
  }
}
