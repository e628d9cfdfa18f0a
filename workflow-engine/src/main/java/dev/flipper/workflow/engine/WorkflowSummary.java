package dev.flipper.workflow.engine;

import java.util.List;
import java.util.Optional;

/**
 * A workflow: its stored definition's version and its latest active instance. Immutable.
 *
 * @param definitionVersion empty if the definition was removed while instances remain
 * @param runningInstances active instances still RUNNING (paused or drained ones too)
 * @param lastInstance the newest active (not yet archived) instance
 * @param status as {@link #statusOf} says; empty if there is no active instance
 */
public record WorkflowSummary(
    String name,
    Optional<String> definitionVersion,
    int runningInstances,
    Optional<InstanceSummary> lastInstance,
    Optional<InstanceStatus> status) {

  /**
   * RUNNING if any instance runs and is not held (Pinball's UI rule), else PAUSED or DRAINED if one
   * runs held (the newest such), else the newest instance's status; empty if none.
   */
  public static Optional<InstanceStatus> statusOf(List<InstanceSummary> oldestFirst) {
    List<InstanceSummary> running =
        oldestFirst.stream().filter(i -> i.status() == InstanceStatus.RUNNING).toList();
    if (running.stream().anyMatch(i -> i.hold().isEmpty())) {
      return Optional.of(InstanceStatus.RUNNING);
    }
    List<InstanceSummary> shown = running.isEmpty() ? oldestFirst : running;
    return shown.isEmpty()
        ? Optional.empty()
        : Optional.of(shown.get(shown.size() - 1).shownStatus());
  }
}
