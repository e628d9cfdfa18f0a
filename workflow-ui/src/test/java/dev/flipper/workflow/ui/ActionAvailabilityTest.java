package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.ui.view.ActionBar;
import dev.flipper.workflow.ui.view.ActionButton;
import dev.flipper.workflow.ui.view.JobAction;
import dev.flipper.workflow.ui.view.JobRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which actions the instance page offers, and why not the others, from the statuses alone. */
class ActionAvailabilityTest {
  private static final List<JobRow> FAILED_TRANSFORM =
      List.of(
          job("extract", "SUCCESS", false, 1),
          job("transform", "FAILURE", false, 1, "extract"),
          job("load", "UPSTREAM_FAILED", true, 0, "transform"),
          job("report", "RUNNING", false, 1, "extract"));

  @Test
  void jobActionsSayPerJobWhyTheyCannotApply() {
    ActionBar bar = ActionAvailability.of("RUNNING", List.of(), FAILED_TRANSFORM);

    assertThat(rule(bar, "poison").refusals())
        .containsOnly(
            Map.entry("extract", "report (downstream of extract) is running"),
            Map.entry("report", "report is running"));
    assertThat(rule(bar, "redo").oneJob()).isTrue();
    assertThat(rule(bar, "redo").refusals())
        .containsOnly(
            Map.entry("load", "load has not run yet"), Map.entry("report", "report is running"));
    assertThat(rule(bar, "disable").refusals())
        .containsOnly(
            Map.entry("load", "load is already disabled"),
            Map.entry("report", "report is running"));
    assertThat(rule(bar, "enable").refusals()).containsOnlyKeys("extract", "transform", "report");
  }

  @Test
  void aRunningInstanceWithAFailedJobCanBeRetriedPausedAndAbortedButNotResumed() {
    Map<String, String> reasons =
        reasons(ActionAvailability.of("RUNNING", List.of(), FAILED_TRANSFORM));

    assertThat(reasons)
        .containsEntry("retry", null)
        .containsEntry("pause", null)
        .containsEntry("abort", null)
        .containsEntry("stop", null)
        .containsEntry("resume", "Resume: instance is not paused")
        .containsEntry("undrain", "Undrain: instance is not drained")
        .containsEntry("unabort", "Unabort: instance is not aborted");
  }

  @Test
  void aFinishedInstanceCannotBePausedOrAbortedAndWithoutFailureNotRetried() {
    List<JobRow> done = List.of(job("extract", "SUCCESS", false, 1));

    Map<String, String> reasons = reasons(ActionAvailability.of("SUCCESS", List.of(), done));

    assertThat(reasons)
        .containsEntry("pause", "Pause: instance already finished (SUCCESS)")
        .containsEntry("abort", "Abort: instance already finished (SUCCESS)")
        .containsEntry("drain", "Drain: instance already finished (SUCCESS)")
        .containsEntry("retry", "Retry failed: no failed job");
    assertThat(reasons(ActionAvailability.of("PAUSED", List.of("instance"), done)))
        .containsEntry("pause", "Pause: instance already paused")
        .containsEntry("resume", null);
    assertThat(reasons(ActionAvailability.of("ABORTED", List.of(), done)))
        .containsEntry("retry", null)
        .containsEntry("unabort", null);
  }

  @Test
  void undrainOfAnInstanceDrainedByItsWorkflowPointsThere() {
    List<JobRow> jobs = List.of(job("extract", "WAITING", false, 0));

    assertThat(reasons(ActionAvailability.of("DRAINED", List.of("workflow"), jobs)))
        .containsEntry("undrain", "Undrain: drained at the workflow level: undrain it there")
        .containsEntry("drain", "Drain: instance already drained");
    assertThat(reasons(ActionAvailability.of("DRAINED", List.of("instance"), jobs)))
        .containsEntry("undrain", null);
  }

  private static Map<String, String> reasons(ActionBar bar) {
    Map<String, String> reasons = new HashMap<>(); // null: the action applies
    for (ActionButton button : bar.instance()) {
      reasons.put(button.op(), button.reason());
    }
    return reasons;
  }

  private static JobAction rule(ActionBar bar, String op) {
    return bar.jobs().stream().filter(a -> a.op().equals(op)).findFirst().orElseThrow();
  }

  private static JobRow job(
      String name, String status, boolean disabled, int executions, String... needs) {
    return new JobRow(
        name, status, List.of(needs), 1, 1, false, disabled, 0, null, executions, null, null, null);
  }
}
