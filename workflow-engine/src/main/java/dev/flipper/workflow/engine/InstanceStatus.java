package dev.flipper.workflow.engine;

/**
 * The status of a workflow instance, as stored in its instance record. Stable names: stored and
 * printed.
 */
public enum InstanceStatus {
  /** Some job is runnable or running. */
  RUNNING,
  /** Nothing can run any more and no job failed for good. */
  SUCCESS,
  /** Nothing can run any more and at least one job failed for good. */
  FAILURE,
  /** Stopped by an ABORT signal (control operations). */
  ABORTED;

  public boolean isFinished() {
    return this != RUNNING;
  }
}
