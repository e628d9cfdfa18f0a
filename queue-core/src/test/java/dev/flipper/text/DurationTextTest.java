package dev.flipper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {
  @Test
  void readsEachUnit() {
    assertThat(DurationText.parse("500ms")).hasValue(Duration.ofMillis(500));
    assertThat(DurationText.parse("30s")).hasValue(Duration.ofSeconds(30));
    assertThat(DurationText.parse("10m")).hasValue(Duration.ofMinutes(10));
    assertThat(DurationText.parse("24h")).hasValue(Duration.ofHours(24));
    assertThat(DurationText.parse("7d")).hasValue(Duration.ofDays(7));
    assertThat(DurationText.parse("0s")).hasValue(Duration.ZERO);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "10",
        "1.5h",
        "10 m",
        "10M",
        "-1s",
        "1w",
        "s",
        "10 minutes",
        "1h30m",
        "9999999999d"
      })
  void refusesEverythingElse(String text) {
    assertThat(DurationText.parse(text)).isEmpty();
  }

  @Test
  void formatsWithTheLargestExactUnitAndReadsBack() {
    assertThat(DurationText.format(Duration.ofDays(7))).isEqualTo("7d");
    assertThat(DurationText.format(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(DurationText.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(DurationText.format(Duration.ZERO)).isEqualTo("0s");
    for (Duration d :
        new Duration[] {Duration.ofDays(3), Duration.ofMinutes(61), Duration.ofMillis(7)}) {
      assertThat(DurationText.parse(DurationText.format(d))).hasValue(d);
    }
  }
}
