package dev.flipper.workflow.definition;

/**
 * What the scheduler does when a workflow's next run is due while earlier instances still run. The
 * names are stored in schedule tokens and written in workflow files, so never rename one.
 */
public enum OverrunPolicy {
  /** Skip this run if an instance is running (the default). */
  SKIP,
  /** Abort the running instances and start a new one at once. */
  ABORT_RUNNING,
  /** Wait until the running instance finishes, then start. */
  DELAY,
  /** Wait until the running instance finishes and the latest finished instance succeeded. */
  DELAY_UNTIL_SUCCESS,
  /** Start a new instance next to the running ones (up to {@code maxRunning}). */
  START_NEW
}
