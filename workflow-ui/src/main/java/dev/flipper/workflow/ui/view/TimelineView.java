package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * An instance's timeline: one row per job (in the instance's job order), a time axis over the span
 * from the first start to the last end (or now), and the critical path. Immutable; times ISO-8601
 * UTC text.
 *
 * @param start the left end of the axis: the instance's start, or an earlier execution's
 * @param end the right end: the instance's end, a later execution's, or now while it runs
 * @param nowPercent where now is on the axis while the instance runs, else null
 * @param criticalPath the jobs whose chain determined the end of the run, first to last
 */
public record TimelineView(
    String start,
    String end,
    long spanMillis,
    boolean running,
    Double nowPercent,
    List<TimelineTick> ticks,
    List<TimelineRow> rows,
    List<String> criticalPath) {
  public TimelineView {
    ticks = List.copyOf(ticks);
    rows = List.copyOf(rows);
    criticalPath = List.copyOf(criticalPath);
  }

  /** True when no job has run yet: nothing to draw. */
  public boolean empty() {
    return rows.stream().allMatch(r -> r.bars().isEmpty());
  }
}
