package dev.flipper.workflow.engine;

import java.util.Optional;

/**
 * What {@link WorkflowEngine#finish} did. Immutable.
 *
 * @param outcome the job's outcome
 * @param instanceEnded the instance's final status if this call ended it (exactly one call per
 *     instance does)
 */
public record Finished(Outcome outcome, Optional<InstanceStatus> instanceEnded) {
  /** The job's outcome. */
  public enum Outcome {
    /**
     * Succeeded: its children got their events (and those whose inputs are complete are runnable).
     */
    SUCCEEDED,
    /** Failed with attempts left: runnable again now, or after its retry delay. */
    RETRYING,
    /** Failed with no attempt left: parked; its children never run in this instance. */
    FAILED
  }
}
