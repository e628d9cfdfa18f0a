package dev.flipper.history;

import java.util.Comparator;
import java.util.Locale;
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

  /** Whether a run passes every filter of this query (the page and the sort aside). */
  public boolean matches(RunRecord run) {
    return (workflow == null || workflow.equals(run.workflow()))
        && (statuses.isEmpty() || statuses.contains(run.status()))
        && (startedBy.isEmpty() || startedBy.contains(run.startedBy()))
        && (startFrom == null || run.startMillis() >= startFrom)
        && (startBefore == null || run.startMillis() < startBefore)
        && (text == null || searchText(run).contains(searchedText()));
  }

  /** The order of this query's pages: its sort, ties by workflow, then instance. */
  public Comparator<RunRecord> order() {
    Comparator<RunRecord> byStart = Comparator.comparingLong(RunRecord::startMillis);
    // Runs without an end come after every run with one, whichever way durations are sorted.
    Comparator<RunRecord> unendedLast = Comparator.comparing(r -> r.endMillis() == null);
    Comparator<RunRecord> byDuration = Comparator.comparingLong(r -> r.durationMillis().orElse(0L));
    Comparator<RunRecord> primary =
        switch (sort) {
          case NEWEST -> byStart.reversed();
          case OLDEST -> byStart;
          case LONGEST -> unendedLast.thenComparing(byDuration.reversed());
          case SHORTEST -> unendedLast.thenComparing(byDuration);
        };
    return primary.thenComparing(RunRecord::workflow).thenComparing(RunRecord::instance);
  }

  /** Between two searched fields of {@link #searchText}; no name, trigger or parameter holds it. */
  public static final char SEARCH_SEPARATOR = '\u001f';

  /**
   * What the text filter searches, shared by every store so all match the same runs: the instance
   * name, the trigger and each parameter as {@code key=value}, lower-cased, joined by {@link
   * #SEARCH_SEPARATOR} so that a search never matches across two of them.
   */
  public static String searchText(RunRecord run) {
    StringBuilder text = new StringBuilder(run.instance()).append(SEARCH_SEPARATOR);
    text.append(run.startedBy());
    run.params().forEach((k, v) -> text.append(SEARCH_SEPARATOR).append(k).append('=').append(v));
    return text.toString().toLowerCase(Locale.ROOT);
  }

  /** The filter text as it is searched for (lower-cased); null without one. */
  public String searchedText() {
    return text == null ? null : text.toLowerCase(Locale.ROOT);
  }

  /** The newest {@code limit} runs of a workflow, unfiltered. */
  public static RunQuery latest(String workflow, int limit) {
    return new RunQuery(workflow, null, null, null, null, null, RunSort.NEWEST, 0, limit);
  }
}
