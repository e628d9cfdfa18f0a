package dev.flipper.workflow.control;

/**
 * Why a job, an instance or a workflow is (not) running now: the code of an {@link Explanation}.
 * Stable names: scripts read them from {@code flipper workflow explain --json}.
 */
public enum Reason {
  /** Running on a worker. */
  RUNNING,
  /** Runnable and claimable: a worker with a free slot takes it within seconds. */
  RUNNABLE,
  /** Waiting for events from parents that have not succeeded (yet). */
  WAITING_FOR_PARENTS,
  /** A failed attempt; the next one starts when the retry delay ends. */
  RETRY_DELAY,
  /** A DRAIN signal at global, workflow or instance level: nothing new starts. */
  DRAINED,
  /** The instance is paused: nothing new starts until resume. */
  PAUSED,
  /** An ABORT signal: nothing starts, running jobs are killed, the instance is archived. */
  ABORTED,
  /** Claimed by a worker whose heartbeat is too old: it is claimed again when that lease ends. */
  WORKER_DEAD,
  /** No worker has published a heartbeat recently. */
  NO_WORKER_ALIVE,
  /** Every alive worker that takes work runs as many jobs as it has slots. */
  ALL_WORKERS_BUSY,
  /** An EXIT signal retires every alive worker (all are of an older generation). */
  GENERATION_MISMATCH,
  /** The workflow runs as many instances as its schedule allows: a due start waits. */
  MAX_RUNNING_INSTANCES,
  /** The workflow's next instance starts at its next scheduled time. */
  SCHEDULED,
  /** The workflow has no schedule: instances start only by hand. */
  NOT_SCHEDULED,
  /** The job failed for good; it runs again only by retry, redo or poison. */
  FAILED,
  /** The job succeeded, or the instance ended. */
  FINISHED,
  /** No such active instance or job. */
  NOT_FOUND
}
