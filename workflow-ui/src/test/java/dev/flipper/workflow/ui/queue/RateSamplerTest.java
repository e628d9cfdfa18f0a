package dev.flipper.workflow.ui.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.ui.queue.QueueViews.Counts;
import dev.flipper.workflow.ui.queue.QueueViews.Rates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Rates from successive counts, on a clock the test moves. */
class RateSamplerTest {
  private Instant now = Instant.parse("2026-11-24T07:00:00Z");
  private final RateSampler sampler =
      new RateSampler(
          new Clock() {
            @Override
            public ZoneOffset getZone() {
              return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
              return this;
            }

            @Override
            public Instant instant() {
              return now;
            }
          });

  @Test
  void unknownUntilTwoCountsAreTwoSecondsApartThenGrowthPerSecond() {
    assertThat(sampler.sample("mail", new Counts(10, 0, 0, 0, 0))).isEqualTo(Rates.UNKNOWN);
    now = now.plusSeconds(1);
    assertThat(sampler.sample("mail", new Counts(12, 0, 0, 0, 0))).isEqualTo(Rates.UNKNOWN);

    now = now.plusSeconds(9);
    // 10 s after the first count: 40 more jobs in all (4/s), 20 of them finished (2/s)
    assertThat(sampler.sample("mail", new Counts(20, 0, 10, 15, 5)))
        .isEqualTo(new Rates(4.0, 2.0, 10L));
  }

  @Test
  void theWindowIsTheLastMinuteAndShrinkingCountsAreNoNegativeRate() {
    sampler.sample("mail", new Counts(100, 0, 0, 0, 0));
    now = now.plus(Duration.ofMinutes(2));
    sampler.sample("mail", new Counts(0, 0, 0, 0, 0)); // everything deleted
    now = now.plusSeconds(10);

    Rates rates = sampler.sample("mail", new Counts(0, 0, 0, 10, 0));

    assertThat(rates)
        .as("the count of 2 minutes ago left the window")
        .isEqualTo(new Rates(1.0, 1.0, 10L));
    assertThat(sampler.sample("other", new Counts(5, 0, 0, 0, 0))).isEqualTo(Rates.UNKNOWN);
  }
}
