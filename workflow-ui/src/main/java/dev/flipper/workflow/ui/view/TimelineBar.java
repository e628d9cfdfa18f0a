package dev.flipper.workflow.ui.view;

/**
 * One execution (attempt) of a job on a timeline. Immutable; times ISO-8601 UTC text.
 *
 * @param status SUCCESS, FAILURE or RUNNING (still open)
 * @param end null while it runs
 * @param exitCode null while it runs or when it ended without one ({@code endReason} says why)
 * @param leftPercent where the bar starts, in percent of the axis
 * @param widthPercent how wide it is, in percent of the axis: its duration, but at least {@link
 *     dev.flipper.workflow.ui.Timeline#MIN_WIDTH_PERCENT} so that a short attempt stays visible
 *     (never over its neighbours in the row nor past the axis)
 * @param critical whether it belongs to the critical path (an attempt of the last run of a job on
 *     it)
 * @param label what the bar is, in one line (its accessible name): {@code extract attempt 2:
 *     FAILURE, 12s, exit 1}
 * @param link where a click on the bar goes: its stdout log, else the job's page
 */
public record TimelineBar(
    String job,
    int execution,
    int attempt,
    String status,
    String start,
    String end,
    long durationMillis,
    Integer exitCode,
    String endReason,
    String worker,
    String host,
    double leftPercent,
    double widthPercent,
    boolean critical,
    String label,
    String link) {}
