package dev.flipper.workflow.control;

import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.util.Optional;

/**
 * The one rule for how many instances of a workflow may run: a start (by hand, by retry, redo or
 * poison of an ended instance) is refused when {@code running >= maxRunning} of the workflow's
 * schedule, the same rule as the scheduler's (Pinball refused only at {@code >}, letting one too
 * many run). A workflow without a schedule has no limit: starting it by hand always works (Pinball
 * crashed). Stateless.
 */
final class RunningLimit {
  private RunningLimit() {}

  /**
   * Returns true if the workflow has a limit (and it is not reached).
   *
   * @throws ControlRefusedException if another running instance would break the limit
   */
  static boolean check(WorkflowEngine engine, String workflow, String what) {
    Optional<Integer> max =
        engine
            .definitions()
            .get(workflow)
            .flatMap(s -> s.definition().schedule())
            .map(Schedule::maxRunning);
    if (max.isEmpty()) {
      return false;
    }
    long running =
        engine.status().instances(workflow).stream()
            .filter(i -> i.status() == InstanceStatus.RUNNING)
            .count();
    if (running >= max.get()) {
      throw new ControlRefusedException(
          what
              + " refused: workflow '"
              + workflow
              + "' has "
              + running
              + " running instances and its schedule allows at most "
              + max.get()
              + " (schedule maxRunning); wait for"
              + " one to end, stop one, or raise maxRunning and apply");
    }
    return true;
  }
}
