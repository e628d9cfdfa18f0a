package dev.flipper.workflow.ui.view;

/**
 * A run as a column of the grid and a bar of the run-time chart. Immutable.
 *
 * @param durationMillis end (or now, while it runs) minus start
 * @param barHeight the chart bar's height in SVG units (0 to {@link GridPage#CHART_HEIGHT})
 * @param barX the chart bar's left edge in SVG units
 */
public record GridRun(
    String instance,
    String status,
    String startedBy,
    String start,
    String end,
    long durationMillis,
    int barX,
    int barHeight) {}
