package dev.flipper.workflow.ui.view;

/**
 * A mark on a timeline's axis. Immutable.
 *
 * @param offsetMillis its time after the start of the axis
 * @param leftPercent where it is, in percent of the axis
 * @param label the offset as people read it: {@code +0s}, {@code +30s}, {@code +1m 30s}
 */
public record TimelineTick(long offsetMillis, double leftPercent, String label) {}
