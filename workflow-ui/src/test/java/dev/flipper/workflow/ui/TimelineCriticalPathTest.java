package dev.flipper.workflow.ui;

import static dev.flipper.workflow.ui.TimelineJobs.at;
import static dev.flipper.workflow.ui.TimelineJobs.job;
import static dev.flipper.workflow.ui.TimelineJobs.ran;
import static dev.flipper.workflow.ui.TimelineJobs.running;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.JobDetail;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The critical path on a diamond: a before b and c, both before d. */
class TimelineCriticalPathTest {
  @Test
  void diamondGoesThroughTheBranchThatFinishedLast() {
    List<JobDetail> slowB =
        List.of(
            job("a", List.of(), ran(1, 1, 0, 10, 0)),
            job("b", List.of("a"), ran(1, 1, 10, 40, 0)),
            job("c", List.of("a"), ran(1, 1, 10, 25, 0)),
            job("d", List.of("b", "c"), ran(1, 1, 40, 50, 0)));
    assertThat(CriticalPath.of(slowB, at(100))).containsExactly("a", "b", "d");

    List<JobDetail> slowC =
        List.of(
            job("a", List.of(), ran(1, 1, 0, 10, 0)),
            job("b", List.of("a"), ran(1, 1, 10, 40, 0)),
            job("c", List.of("a"), ran(1, 1, 10, 60, 0)),
            job("d", List.of("b", "c"), ran(1, 1, 60, 70, 0)));
    assertThat(CriticalPath.of(slowC, at(100))).containsExactly("a", "c", "d");
  }

  @Test
  void retriedJobIsOnThePathWhenItsRetryMadeItFinishLast() {
    // b failed fast, waited 30 s and ran again: it ends after c although c ran longer than b's
    // attempts.
    List<JobDetail> jobs =
        List.of(
            job("a", List.of(), ran(1, 1, 0, 10, 0)),
            job("b", List.of("a"), ran(1, 1, 10, 15, 1), ran(2, 2, 45, 70, 0)),
            job("c", List.of("a"), ran(1, 1, 10, 50, 0)),
            job("d", List.of("b", "c"), ran(1, 1, 70, 80, 0)));
    assertThat(CriticalPath.of(jobs, at(100))).containsExactly("a", "b", "d");
    assertThat(CriticalPath.lastRun(jobs.get(1)).stream().map(ExecutionDetail::execution))
        .as("both attempts of b: the failure and the retry delay made it late")
        .containsExactly(1, 2);
  }

  @Test
  void runningJobEndsThePathAtNow() {
    List<JobDetail> jobs =
        List.of(
            job("a", List.of(), ran(1, 1, 0, 10, 0)),
            job("b", List.of("a"), running(1, 1, 10)),
            job("c", List.of("a"), ran(1, 1, 10, 20, 0)),
            job("d", List.of("b", "c")));
    assertThat(CriticalPath.of(jobs, at(30))).containsExactly("a", "b");
  }

  @Test
  void jobRunAgainFollowsTheParentThatFinishedBeforeItsLastRun() {
    // b was poisoned and ran again (attempt 1 anew) after a ran again: its last run waited for a's
    // second execution, not its first.
    JobDetail a = job("a", List.of(), ran(1, 1, 0, 10, 0), ran(2, 1, 30, 40, 0));
    JobDetail b = job("b", List.of("a"), ran(1, 1, 10, 20, 0), ran(2, 1, 40, 50, 0));
    assertThat(CriticalPath.lastRun(b).stream().map(ExecutionDetail::execution)).containsExactly(2);
    assertThat(CriticalPath.of(List.of(a, b), at(60))).containsExactly("a", "b");
  }

  @Test
  void nothingRunNoPath() {
    assertThat(CriticalPath.of(List.of(job("a", List.of()), job("b", List.of("a"))), at(0)))
        .isEmpty();
  }
}
