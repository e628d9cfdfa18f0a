package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * The grid of a workflow ({@code /workflows/<wf>/grid}): its latest runs as columns, oldest left,
 * newest right, and its jobs as rows (the definition's order, then any other job that ran), with
 * the run-time chart of the same runs above. Immutable.
 *
 * @param maxDurationMillis the longest run shown: the chart's full height
 */
public record GridPage(
    Banner banner,
    String workflow,
    int requested,
    List<GridRun> runs,
    List<GridRow> jobs,
    long maxDurationMillis) {
  /** The chart's drawing height and each bar's width and step, in SVG units. */
  public static final int CHART_HEIGHT = 120;

  public static final int BAR_WIDTH = 18;
  public static final int BAR_STEP = 24;

  public GridPage {
    runs = List.copyOf(runs);
    jobs = List.copyOf(jobs);
  }

  /** The chart's drawing width. */
  public int chartWidth() {
    return Math.max(BAR_STEP, runs.size() * BAR_STEP);
  }
}
