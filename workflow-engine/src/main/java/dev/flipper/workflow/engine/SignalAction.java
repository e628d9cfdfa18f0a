package dev.flipper.workflow.engine;

/**
 * What a signal asks for; the name is also the last component of the signal's token. A signal
 * applies at its own scope and below: a global DRAIN drains every instance (as in Pinball;
 * docs/tokens.md, "Workflow token names"). Stable names: stored.
 */
public enum SignalAction {
  /** Start nothing new in the covered instances; running jobs finish and their results are kept. */
  DRAIN,
  /**
   * Stop the covered instances: nothing new starts, running jobs are killed (control operations,
   * issue 12).
   */
  ABORT,
  /** Workers of an older generation exit after their current job (upgrades). */
  EXIT,
  /** Archive the covered instances as soon as nothing more can run, without the archive delay. */
  ARCHIVE,
  /**
   * Instance scope only: start nothing new in the instance; running jobs finish and their results
   * are kept ({@code flipper workflow pause}, issue 12).
   */
  PAUSE
}
