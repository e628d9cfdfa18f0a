package dev.flipper.workflow.scheduler.overrun;

import static dev.flipper.workflow.definition.OverrunPolicy.ABORT_RUNNING;
import static dev.flipper.workflow.definition.OverrunPolicy.DELAY;
import static dev.flipper.workflow.definition.OverrunPolicy.DELAY_UNTIL_SUCCESS;
import static dev.flipper.workflow.definition.OverrunPolicy.SKIP;
import static dev.flipper.workflow.definition.OverrunPolicy.START_NEW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.workflow.definition.OverrunPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverrunRulesTest {
  private static final WorkflowRuns IDLE = WorkflowRuns.none();
  private static final WorkflowRuns ONE_RUNNING =
      WorkflowRuns.of(List.of("100"), InstanceOutcome.SUCCESS);
  private static final WorkflowRuns IDLE_AFTER_FAILURE =
      WorkflowRuns.of(List.of(), InstanceOutcome.FAILURE);
  private static final WorkflowRuns IDLE_AFTER_ABORT =
      WorkflowRuns.of(List.of(), InstanceOutcome.ABORTED);
  private static final WorkflowRuns IDLE_AFTER_SUCCESS =
      WorkflowRuns.of(List.of(), InstanceOutcome.SUCCESS);

  private static OverrunDecision decide(OverrunPolicy policy, WorkflowRuns runs) {
    return OverrunRules.decide(policy, 3, runs);
  }

  private static OverrunDecision start() {
    return new OverrunDecision.Start(List.of());
  }

  @Test
  void everyPolicyStartsWhenNothingRuns() {
    for (OverrunPolicy policy : OverrunPolicy.values()) {
      assertThat(decide(policy, IDLE)).as("%s", policy).isEqualTo(start());
      assertThat(decide(policy, IDLE_AFTER_SUCCESS)).as("%s", policy).isEqualTo(start());
    }
  }

  @Test
  void skipSkipsTheSlotWhileAnInstanceRuns() {
    assertThat(decide(SKIP, ONE_RUNNING)).isInstanceOf(OverrunDecision.Skip.class);
    assertThat(decide(SKIP, IDLE_AFTER_FAILURE)).isEqualTo(start());
  }

  @Test
  void abortRunningAbortsEveryRunningInstanceAndStartsAtOnce() {
    WorkflowRuns three = WorkflowRuns.of(List.of("1", "2", "3"), null);
    assertThat(OverrunRules.decide(ABORT_RUNNING, 3, three))
        .isEqualTo(new OverrunDecision.Start(List.of("1", "2", "3")));
    assertThat(OverrunRules.decide(ABORT_RUNNING, 1, ONE_RUNNING))
        .isEqualTo(new OverrunDecision.Start(List.of("100")));
  }

  @Test
  void delayWaitsWhileAnInstanceRunsThenStarts() {
    assertThat(decide(DELAY, ONE_RUNNING)).isInstanceOf(OverrunDecision.Wait.class);
    assertThat(decide(DELAY, IDLE_AFTER_FAILURE)).isEqualTo(start());
  }

  @Test
  void delayUntilSuccessWaitsAfterAFailureEvenWhenNothingRuns() {
    assertThat(decide(DELAY_UNTIL_SUCCESS, ONE_RUNNING)).isInstanceOf(OverrunDecision.Wait.class);
    assertThat(decide(DELAY_UNTIL_SUCCESS, IDLE_AFTER_FAILURE))
        .isInstanceOf(OverrunDecision.Wait.class)
        .asString()
        .contains("FAILURE");
    assertThat(decide(DELAY_UNTIL_SUCCESS, IDLE_AFTER_ABORT))
        .isInstanceOf(OverrunDecision.Wait.class);
    assertThat(decide(DELAY_UNTIL_SUCCESS, IDLE_AFTER_SUCCESS)).isEqualTo(start());
  }

  @Test
  void startNewStartsUpToMaxRunningExactly() {
    assertThat(OverrunRules.decide(START_NEW, 3, WorkflowRuns.of(List.of("1", "2"), null)))
        .isEqualTo(start());
    assertThat(OverrunRules.decide(START_NEW, 3, WorkflowRuns.of(List.of("1", "2", "3"), null)))
        .isEqualTo(new OverrunDecision.TooMany(3, 3));
    assertThat(OverrunRules.decide(START_NEW, 1, ONE_RUNNING))
        .isEqualTo(new OverrunDecision.TooMany(1, 1));
  }

  @Test
  void maxRunningBelowOneIsABug() {
    assertThatThrownBy(() -> OverrunRules.decide(SKIP, 0, IDLE)).hasMessageContaining("at least 1");
  }
}
