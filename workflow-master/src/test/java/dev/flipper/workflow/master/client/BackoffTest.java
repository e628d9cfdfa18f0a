package dev.flipper.workflow.master.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

  @Test
  void delaysDoubleAroundTheBaseWithinFiftyPercent() {
    assertThat(backoff.delayAfter(1, () -> 0.5)).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.delayAfter(2, () -> 0.5)).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.delayAfter(3, () -> 0.0)).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.delayAfter(3, () -> 0.999)).isEqualTo(Duration.ofMillis(599));
  }

  @Test
  void theCapHoldsAfterJitterAndForHugeAttemptCounts() {
    assertThat(backoff.delayAfter(5, () -> 0.999)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.delayAfter(1000, () -> 0.0)).isEqualTo(Duration.ofSeconds(2));
  }
}
