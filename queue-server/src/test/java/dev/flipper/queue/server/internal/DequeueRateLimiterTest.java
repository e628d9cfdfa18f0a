package dev.flipper.queue.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DequeueRateLimiterTest {
  private final MutableClock clock = MutableClock.startingAt(Instant.parse("2024-05-01T10:00:00Z"));
  private final DequeueRateLimiter limiter = new DequeueRateLimiter(clock);

  @Test
  void aDequeueOfOneSecondOfJobsIsAllowedAndTheNextIsRefusedUntilRefilled() {
    limiter.configure(Map.of("q", 10.0));

    Admission first = limiter.admit("q", 10);
    assertThat(first.refused()).isFalse();
    assertThat(first.limit()).isEqualTo(10);
    first.charge(10);

    assertThat(limiter.admit("q", 1).refused()).isTrue();
    clock.advance(Duration.ofMillis(950));
    assertThat(limiter.admit("q", 1).refused()).isTrue();
    clock.advance(Duration.ofMillis(50));
    assertThat(limiter.admit("q", 1).refused()).isFalse();
  }

  @Test
  void chargesTheJobsReturnedNotTheLimit() {
    limiter.configure(Map.of("q", 10.0));

    for (int i = 0; i < 100; i++) {
      Admission empty = limiter.admit("q", 10);
      assertThat(empty.refused()).as("empty dequeue #%d", i).isFalse();
      empty.charge(0);
    }
    Admission some = limiter.admit("q", 10);
    some.charge(3);
    clock.advance(Duration.ofMillis(300));
    assertThat(limiter.admit("q", 10).refused()).isFalse();
  }

  @Test
  void aDequeueMayNotTakeMoreThanOneSecondOfJobs() {
    limiter.configure(Map.of("q", 5.0));
    assertThat(limiter.admit("q", 1000).limit()).isEqualTo(5);
  }

  @Test
  void unlistedQueuesAreNeverLimitedAndZeroPauses() {
    limiter.configure(Map.of("paused", 0.0));

    for (int i = 0; i < 1000; i++) {
      Admission free = limiter.admit("other", 100);
      assertThat(free.limit()).isEqualTo(100);
      free.charge(100);
    }
    clock.advance(Duration.ofHours(1));
    assertThat(limiter.admit("paused", 1).refused()).isTrue();
  }

  @Test
  void fractionalRatesWork() {
    limiter.configure(Map.of("slow", 0.1));

    limiter.admit("slow", 5).charge(1);
    clock.advance(Duration.ofSeconds(9));
    assertThat(limiter.admit("slow", 1).refused()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(limiter.admit("slow", 1).refused()).isFalse();
  }

  @Test
  void eachServerTakesItsShareAndRemovedLimitsAreDropped() {
    limiter.configure(Map.of("q", 100.0, "r", 10.0));
    limiter.serverCount(4);
    assertThat(limiter.rate("q")).isEqualTo(25.0);
    assertThat(limiter.rate("r")).isEqualTo(2.5);

    limiter.configure(Map.of("r", 10.0));
    assertThat(limiter.rate("q")).isNull();
    assertThat(limiter.admit("q", 1000).limit()).isEqualTo(1000);

    limiter.configure(Map.of());
    assertThat(limiter.rate("r")).isNull();
  }

  @Test
  void deliversTheConfiguredRateOverTime() {
    limiter.configure(Map.of("q", 100.0));
    limiter.serverCount(2);
    int delivered = 0;
    for (int step = 0;
        step < 1000;
        step++) { // 10 s in 10 ms steps, a greedy worker asking for 10 jobs
      clock.advance(Duration.ofMillis(10));
      Admission admission = limiter.admit("q", 10);
      if (!admission.refused()) {
        admission.charge(admission.limit());
        delivered += admission.limit();
      }
    }
    assertThat(delivered / 10.0)
        .isCloseTo(50.0, org.assertj.core.data.Percentage.withPercentage(10));
  }
}
