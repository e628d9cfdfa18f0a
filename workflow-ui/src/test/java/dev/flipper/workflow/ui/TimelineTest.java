package dev.flipper.workflow.ui;

import static dev.flipper.workflow.ui.TimelineJobs.T0;
import static dev.flipper.workflow.ui.TimelineJobs.at;
import static dev.flipper.workflow.ui.TimelineJobs.job;
import static dev.flipper.workflow.ui.TimelineJobs.ran;
import static dev.flipper.workflow.ui.TimelineJobs.running;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.ui.view.TimelineBar;
import dev.flipper.workflow.ui.view.TimelineRow;
import dev.flipper.workflow.ui.view.TimelineTick;
import dev.flipper.workflow.ui.view.TimelineView;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimelineTest {
  private static TimelineView finished(double endSeconds, JobDetail... jobs) {
    return Timeline.of("etl", "42", T0, Optional.of(at(endSeconds)), List.of(jobs), at(9999));
  }

  private static TimelineRow row(TimelineView timeline, String job) {
    return timeline.rows().stream().filter(r -> r.job().equals(job)).findFirst().orElseThrow();
  }

  @Test
  void retriedJobHasOneBarPerAttemptAtItsTimes() {
    TimelineView timeline =
        finished(
            120,
            job("extract", List.of(), ran(1, 1, 0, 2, 1), ran(2, 2, 60, 100, 0)),
            job("load", List.of("extract"), ran(1, 1, 100, 120, 0)));

    assertThat(timeline.rows()).extracting(TimelineRow::job).containsExactly("extract", "load");
    List<TimelineBar> bars = row(timeline, "extract").bars();
    assertThat(bars).hasSize(2);
    TimelineBar first = bars.get(0);
    assertThat(first.status()).isEqualTo("FAILURE");
    assertThat(first.leftPercent()).isEqualTo(0.0);
    assertThat(first.widthPercent()).isEqualTo(1.67);
    assertThat(first.label())
        .isEqualTo("extract attempt 1: FAILURE, 2s, exit 1, on the critical path");
    assertThat(first.link())
        .isEqualTo("/workflows/etl/instances/42/jobs/extract/executions/1/logs/stdout");
    TimelineBar second = bars.get(1);
    assertThat(second.status()).isEqualTo("SUCCESS");
    assertThat(second.leftPercent()).isEqualTo(50.0);
    assertThat(second.widthPercent()).isEqualTo(33.33);
    assertThat(second.durationMillis()).isEqualTo(40_000);
    assertThat(second.worker()).isEqualTo("worker-2");
    assertThat(second.end()).isEqualTo("2026-11-28T10:01:40Z");
    assertThat(timeline.start()).isEqualTo("2026-11-28T10:00:00Z");
    assertThat(timeline.end()).isEqualTo("2026-11-28T10:02:00Z");
    assertThat(timeline.spanMillis()).isEqualTo(120_000);
    assertThat(timeline.ticks())
        .extracting(TimelineTick::label)
        .startsWith("+0s", "+15s")
        .endsWith("+2m");
    assertThat(timeline.nowPercent()).as("finished: no now marker").isNull();
    assertThat(timeline.running()).isFalse();
  }

  @Test
  void shortAttemptIsWidenedButNeverOverItsNeighboursNorPastTheAxis() {
    // An hour: a 1 s attempt, retried at once for the rest of the hour; a 1 s job at the very end.
    TimelineView timeline =
        finished(
            3600,
            job("flaky", List.of(), ran(1, 1, 0, 1, 1), ran(2, 2, 1.2, 3590, 0)),
            job("last", List.of("flaky"), ran(1, 1, 3599, 3600, 0)));

    List<TimelineBar> flaky = row(timeline, "flaky").bars();
    assertThat(flaky.get(0).widthPercent()).isEqualTo(Timeline.MIN_WIDTH_PERCENT);
    assertThat(flaky.get(1).leftPercent())
        .as("pushed right by the widened attempt before it")
        .isGreaterThanOrEqualTo(flaky.get(0).leftPercent() + flaky.get(0).widthPercent());
    TimelineBar last = row(timeline, "last").bars().get(0);
    assertThat(last.widthPercent()).isEqualTo(Timeline.MIN_WIDTH_PERCENT);
    assertThat(last.leftPercent() + last.widthPercent()).isEqualTo(100.0);
  }

  @Test
  void manyQuickRetriesAtTheEndStayInsideTheAxisWithoutOverlapping() {
    TimelineView timeline =
        finished(
            1000,
            job("busy", List.of(), ran(1, 1, 0, 1000, 0)),
            job(
                "retried",
                List.of(),
                ran(1, 1, 996, 997, 1),
                ran(2, 2, 997, 998, 1),
                ran(3, 3, 998, 999, 1),
                ran(4, 4, 999, 1000, 0)));

    List<TimelineBar> bars = row(timeline, "retried").bars();
    for (int i = 0; i < bars.size(); i++) {
      TimelineBar bar = bars.get(i);
      assertThat(bar.widthPercent()).isEqualTo(Timeline.MIN_WIDTH_PERCENT);
      assertThat(bar.leftPercent() + bar.widthPercent()).isLessThanOrEqualTo(100.0);
      if (i > 0) {
        TimelineBar before = bars.get(i - 1);
        assertThat(bar.leftPercent())
            .isGreaterThanOrEqualTo(before.leftPercent() + before.widthPercent());
      }
    }
    assertThat(bars.get(3).leftPercent()).isEqualTo(99.0);
  }

  @Test
  void runningInstanceHasANowMarkerAndAnOpenBar() {
    TimelineView timeline =
        Timeline.of(
            "etl",
            "42",
            T0,
            Optional.empty(),
            List.of(
                job("extract", List.of(), ran(1, 1, 0, 30, 0)),
                job("transform", List.of("extract"), running(1, 1, 30)),
                job("load", List.of("transform"))),
            at(90));

    assertThat(timeline.running()).isTrue();
    assertThat(timeline.nowPercent()).isEqualTo(100.0);
    assertThat(timeline.end()).isEqualTo("2026-11-28T10:01:30Z");
    TimelineBar open = row(timeline, "transform").bars().get(0);
    assertThat(open.status()).isEqualTo("RUNNING");
    assertThat(open.end()).isNull();
    assertThat(open.durationMillis()).isEqualTo(60_000);
    assertThat(open.widthPercent()).isEqualTo(66.67);
    assertThat(open.link())
        .as("no log yet: the job's page")
        .isEqualTo("/workflows/etl/instances/42/jobs/transform");
    assertThat(row(timeline, "load").bars()).isEmpty();
    assertThat(timeline.criticalPath()).containsExactly("extract", "transform");
    assertThat(timeline.empty()).isFalse();
  }

  @Test
  void criticalPathMarksTheJobsAndTheBarsOfTheirLastRun() {
    TimelineView timeline =
        finished(
            80,
            job("a", List.of(), ran(1, 1, 0, 10, 0)),
            job("b", List.of("a"), ran(1, 1, 10, 15, 1), ran(2, 2, 45, 70, 0)),
            job("c", List.of("a"), ran(1, 1, 10, 50, 0)),
            job("d", List.of("b", "c"), ran(1, 1, 70, 80, 0)));

    assertThat(timeline.criticalPath()).containsExactly("a", "b", "d");
    assertThat(timeline.rows())
        .extracting(r -> r.job() + " " + r.critical())
        .containsExactly("a true", "b true", "c false", "d true");
    assertThat(row(timeline, "b").bars()).allMatch(TimelineBar::critical);
    assertThat(row(timeline, "c").bars()).noneMatch(TimelineBar::critical);
    assertThat(row(timeline, "c").bars().get(0).label())
        .isEqualTo("c attempt 1: SUCCESS, 40s, exit 0");
  }

  @Test
  void nothingRunIsEmpty() {
    TimelineView timeline =
        Timeline.of("etl", "42", T0, Optional.empty(), List.of(job("a", List.of())), T0);
    assertThat(timeline.empty()).isTrue();
    assertThat(timeline.criticalPath()).isEmpty();
  }
}
