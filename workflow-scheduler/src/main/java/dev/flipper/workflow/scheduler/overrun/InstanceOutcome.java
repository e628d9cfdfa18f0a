package dev.flipper.workflow.scheduler.overrun;

/** How a finished workflow instance ended, as far as the overrun policies care. */
public enum InstanceOutcome {
  SUCCESS,
  FAILURE,
  ABORTED
}
