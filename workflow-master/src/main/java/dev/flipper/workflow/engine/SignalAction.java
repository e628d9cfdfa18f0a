package dev.flipper.workflow.engine;

/**
 * What a signal asks for; the name is also the last component of the signal's token. A signal applies at
 * its own scope and below: a global DRAIN drains every instance (Pinball §3.3). Stable names: stored.
 */
public enum SignalAction {
  /** Start nothing new in the covered instances; running jobs finish and their results are kept. */
  DRAIN,
  /** Stop the covered instances: nothing new starts, running jobs are killed (control operations, issue 12). */
  ABORT,
  /** Workers of an older generation exit after their current job (upgrades). */
  EXIT,
  /** Archive the instance once nothing more can run. */
  ARCHIVE
}
