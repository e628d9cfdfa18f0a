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
  /**
   * The chart's drawing height and each bar's width and step, in SVG units (= CSS pixels): the step
   * is the grid's column pitch (a 22 px cell and 3 px spacing, ui.css), so each bar stands above
   * its run's column.
   */
  public static final int CHART_HEIGHT = 100;

  public static final int BAR_WIDTH = 22;
  public static final int BAR_STEP = 25;

  public GridPage {
    runs = List.copyOf(runs);
    jobs = List.copyOf(jobs);
  }

  /** The chart's drawing width: that of the grid's run columns (no spacing after the last). */
  public int chartWidth() {
    return Math.max(BAR_WIDTH, runs.size() * BAR_STEP - (BAR_STEP - BAR_WIDTH));
  }
}
