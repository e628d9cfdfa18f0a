package dev.flipper.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ReadableTest {
  @Test
  void durationsShowTheirTwoLargestUnitsNeverIso() {
    assertThat(Readable.duration(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(Readable.duration(Duration.ofSeconds(15))).isEqualTo("15s");
    assertThat(Readable.duration(Duration.ofMillis(15_999))).isEqualTo("15s");
    assertThat(Readable.duration(Duration.ofSeconds(125))).isEqualTo("2m 5s");
    assertThat(Readable.duration(Duration.ofMinutes(62).plusSeconds(7))).isEqualTo("1h 2m");
    assertThat(Readable.duration(Duration.ofHours(1))).isEqualTo("1h");
    assertThat(Readable.duration(Duration.ofDays(3).plusHours(4).plusMinutes(5)))
        .isEqualTo("3d 4h");
    assertThat(Readable.duration(Duration.ZERO)).isEqualTo("0s");
    assertThat(Readable.duration(Duration.ofSeconds(-90))).isEqualTo("-1m 30s");
    assertThat(Readable.millis(3_600_000L * 49)).isEqualTo("2d 1h");
  }

  @Test
  void timesAreUtcToTheSecondAndLabelled() {
    assertThat(Readable.time(Instant.parse("2026-11-28T10:15:03.999Z")))
        .isEqualTo("2026-11-28 10:15:03 UTC");
  }
}
