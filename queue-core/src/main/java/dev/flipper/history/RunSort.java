package dev.flipper.history;

/** The order of a page of runs; ties are broken by instance name, so pages never overlap. */
public enum RunSort {
  /** Latest start first (the default). */
  NEWEST,
  /** Earliest start first. */
  OLDEST,
  /** Longest duration first. */
  LONGEST,
  /** Shortest duration first. */
  SHORTEST
}
