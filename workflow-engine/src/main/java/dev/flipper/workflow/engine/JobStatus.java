package dev.flipper.workflow.engine;

/**
 * The status of a job in an instance, derived from its token (waiting or runnable, owner) and its
 * last execution record; see docs/workflows.md, "Job states". Stable names: printed and sent as
 * JSON.
 */
public enum JobStatus {
  /** Waiting for an event on some input; never ran in this instance. */
  WAITING,
  /** Every input has its event; waiting for a worker, or for its retry delay to pass. */
  RUNNABLE,
  /** A worker holds it (its lease may have ended: then it is reclaimed and the attempt fails). */
  RUNNING,
  /** Its last execution succeeded. */
  SUCCESS,
  /** Its last execution failed and no attempt is left: it failed for good. */
  FAILURE,
  /** Disabled: succeeds without running once its inputs are complete. */
  DISABLED,
  /**
   * Waiting, but a job above it failed for good: it cannot run in this instance unless that job is
   * retried (derived when read: its token is a waiting one, as for WAITING).
   */
  UPSTREAM_FAILED
}
