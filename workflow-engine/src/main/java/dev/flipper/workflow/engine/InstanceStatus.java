package dev.flipper.workflow.engine;

/**
 * The status of a workflow instance, as stored in its instance record (RUNNING, SUCCESS, FAILURE,
 * ABORTED), or as shown for a running one that starts nothing new (PAUSED, DRAINED: derived from
 * its signals when read, never stored; {@link InstanceSummary#shownStatus}). Stable names: stored
 * and printed.
 */
public enum InstanceStatus {
  /** Some job is runnable or running. */
  RUNNING,
  /** Nothing can run any more and no job failed for good. */
  SUCCESS,
  /** Nothing can run any more and at least one job failed for good. */
  FAILURE,
  /** Stopped by an ABORT signal (control operations). */
  ABORTED,
  /** Shown only: running, but a PAUSE signal starts nothing new until resume. */
  PAUSED,
  /** Shown only: running, but a DRAIN signal (any level) starts nothing new until undrain. */
  DRAINED;

  public boolean isFinished() {
    return this == SUCCESS || this == FAILURE || this == ABORTED;
  }
}
