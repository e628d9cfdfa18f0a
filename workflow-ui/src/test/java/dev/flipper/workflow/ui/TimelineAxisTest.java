package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.ui.view.TimelineTick;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineAxisTest {
  private static List<String> labels(Duration span) {
    return TimelineAxis.ticks(span.toMillis()).stream().map(TimelineTick::label).toList();
  }

  @Test
  void subSecondSpanIsMarkedInMilliseconds() {
    assertThat(labels(Duration.ofMillis(800)))
        .containsExactly(
            "+0s", "+100ms", "+200ms", "+300ms", "+400ms", "+500ms", "+600ms", "+700ms", "+800ms");
    assertThat(labels(Duration.ofMillis(2500)))
        .containsExactly("+0s", "+500ms", "+1s", "+1.5s", "+2s", "+2.5s");
  }

  @Test
  void secondsSpanIsMarkedEveryFiveSeconds() {
    List<TimelineTick> ticks = TimelineAxis.ticks(Duration.ofSeconds(45).toMillis());
    assertThat(ticks.stream().map(TimelineTick::label))
        .containsExactly(
            "+0s", "+5s", "+10s", "+15s", "+20s", "+25s", "+30s", "+35s", "+40s", "+45s");
    assertThat(ticks.get(0).leftPercent()).isEqualTo(0.0);
    assertThat(ticks.get(3).leftPercent()).isEqualTo(33.33);
    assertThat(ticks.get(9).leftPercent()).isEqualTo(100.0);
  }

  @Test
  void minutesSpanIsMarkedEveryMinute() {
    assertThat(labels(Duration.ofMinutes(7)))
        .containsExactly("+0s", "+1m", "+2m", "+3m", "+4m", "+5m", "+6m", "+7m");
    assertThat(labels(Duration.ofMinutes(7).plusSeconds(30)))
        .as("the last tick is the last whole step inside the span")
        .endsWith("+7m");
  }

  @Test
  void hoursSpanIsMarkedEveryHalfHour() {
    assertThat(labels(Duration.ofHours(3)))
        .containsExactly("+0s", "+30m", "+1h", "+1h 30m", "+2h", "+2h 30m", "+3h");
  }

  @Test
  void daysSpanIsMarkedEverySixHours() {
    assertThat(labels(Duration.ofDays(2)))
        .containsExactly(
            "+0s", "+6h", "+12h", "+18h", "+1d", "+1d 6h", "+1d 12h", "+1d 18h", "+2d");
  }

  @Test
  void everySpanGetsFiveToTenTicksAtNiceSteps() {
    for (long span = 4; span < Duration.ofDays(3000).toMillis(); span = span * 11 / 10 + 1) {
      List<TimelineTick> ticks = TimelineAxis.ticks(span);
      assertThat(ticks).as("span %d ms", span).hasSizeBetween(5, 10);
      assertThat(ticks.get(ticks.size() - 1).offsetMillis())
          .as("span %d ms", span)
          .isLessThanOrEqualTo(span);
    }
    assertThat(TimelineAxis.step(Duration.ofMinutes(70).toMillis()))
        .isEqualTo(Duration.ofMinutes(10).toMillis());
    assertThat(TimelineAxis.step(Duration.ofMinutes(130).toMillis()))
        .isEqualTo(Duration.ofMinutes(15).toMillis());
  }
}
