package dev.flipper.workflow.ui.view;

/**
 * One execution on an instance's timeline. Immutable.
 *
 * @param status SUCCESS, FAILURE or RUNNING (still open)
 * @param leftPercent where it starts, in percent of the instance's span (start to end or now)
 * @param widthPercent how long it took, in percent of that span (at least a sliver, to stay
 *     visible)
 */
public record GanttBar(
    String job,
    int execution,
    int attempt,
    String status,
    String start,
    String end,
    long durationMillis,
    double leftPercent,
    double widthPercent) {}
