package dev.flipper.workflow.engine;

import java.util.Optional;

/**
 * A workflow: its stored definition's version and its latest active instance. Immutable.
 *
 * @param definitionVersion empty if the definition was removed while instances remain
 * @param runningInstances active instances still RUNNING
 * @param lastInstance the newest active (not yet archived) instance
 */
public record WorkflowSummary(
    String name,
    Optional<String> definitionVersion,
    int runningInstances,
    Optional<InstanceSummary> lastInstance) {
  /**
   * RUNNING if any instance runs, else the last instance's status (Pinball's UI rule); empty if
   * none.
   */
  public Optional<InstanceStatus> status() {
    if (runningInstances > 0) {
      return Optional.of(InstanceStatus.RUNNING);
    }
    return lastInstance.map(InstanceSummary::status);
  }
}
