package dev.flipper.workflow.scheduler.overrun;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the scheduler knows about a workflow's instances when a slot is due. Immutable.
 *
 * @param running the ids of the instances that run now (started and not finished), oldest first
 * @param lastFinished how the most recently finished instance ended; empty if none has finished
 */
public record WorkflowRuns(List<String> running, Optional<InstanceOutcome> lastFinished) {

  public WorkflowRuns {
    running = List.copyOf(running);
    Objects.requireNonNull(lastFinished, "lastFinished");
  }

  /** No instance ever ran. */
  public static WorkflowRuns none() {
    return new WorkflowRuns(List.of(), Optional.empty());
  }

  public static WorkflowRuns of(List<String> running, InstanceOutcome lastFinished) {
    return new WorkflowRuns(running, Optional.ofNullable(lastFinished));
  }

  public int runningCount() {
    return running.size();
  }
}
