package dev.flipper.history;

import java.util.Set;

/**
 * Which runs to read, and which page of them. Every filter is optional (null or empty: any); all
 * given filters must hold.
 *
 * @param workflow runs of this workflow only; null: every workflow
 * @param statuses runs whose status is one of these
 * @param startedBy runs whose trigger is one of these
 * @param startFrom runs that started at or after this epoch millisecond
 * @param startBefore runs that started before this epoch millisecond
 * @param text runs whose instance name, trigger or a parameter (as {@code key=value}) contains
 *     this, ignoring case
 * @param offset how many matching runs to skip (0 or more)
 * @param limit the page size, 1 to {@link #MAX_LIMIT}
 */
public record RunQuery(
    String workflow,
    Set<String> statuses,
    Set<String> startedBy,
    Long startFrom,
    Long startBefore,
    String text,
    RunSort sort,
    int offset,
    int limit) {

  /** The largest page one query returns. */
  public static final int MAX_LIMIT = 1000;

  public RunQuery {
    statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    startedBy = startedBy == null ? Set.of() : Set.copyOf(startedBy);
    text = text == null || text.isBlank() ? null : text.strip();
    sort = sort == null ? RunSort.NEWEST : sort;
    if (offset < 0) {
      throw new IllegalArgumentException("run query offset is " + offset + "; use 0 or more");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("run query limit is " + limit + "; use 1 to " + MAX_LIMIT);
    }
  }

  /** The newest {@code limit} runs of a workflow, unfiltered. */
  public static RunQuery latest(String workflow, int limit) {
    return new RunQuery(workflow, null, null, null, null, null, RunSort.NEWEST, 0, limit);
  }
}
