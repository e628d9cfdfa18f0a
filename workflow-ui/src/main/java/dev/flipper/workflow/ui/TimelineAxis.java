package dev.flipper.workflow.ui;

import dev.flipper.text.Readable;
import dev.flipper.workflow.ui.view.TimelineTick;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The ticks of a timeline's axis: every multiple of one "nice" step (1, 2, 5 ms ... 1 s, 5 s, 15 s,
 * 1 min, 5 min, 15 min, 1 h, 6 h, 1 d ...) from the start, labelled by their offset from it ({@code
 * +0s}, {@code +30s}, {@code +1m}). The step is the smallest that leaves at most {@link #MAX_TICKS}
 * ticks; since no step is more than 2.5 times the one before it, that leaves at least {@link
 * #MIN_TICKS} on any span of 4 ms or more. Stateless.
 */
final class TimelineAxis {
  static final int MIN_TICKS = 5;
  static final int MAX_TICKS = 10;

  private static final long SECOND = 1000;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  private static final long[] STEPS = {
    1,
    2,
    5,
    10,
    20,
    50,
    100,
    200,
    500,
    SECOND,
    2 * SECOND,
    5 * SECOND,
    10 * SECOND,
    15 * SECOND,
    30 * SECOND,
    MINUTE,
    2 * MINUTE,
    5 * MINUTE,
    10 * MINUTE,
    15 * MINUTE,
    30 * MINUTE,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    4 * DAY,
    7 * DAY,
    14 * DAY,
    28 * DAY
  };

  private TimelineAxis() {}

  /** The ticks of an axis {@code spanMillis} long (at least 1 ms), the first at its start. */
  static List<TimelineTick> ticks(long spanMillis) {
    long span = Math.max(1, spanMillis);
    long step = step(span);
    List<TimelineTick> ticks = new ArrayList<>();
    for (long offset = 0; offset <= span; offset += step) {
      ticks.add(
          new TimelineTick(offset, Timeline.round(100.0 * offset / span), label(offset, step)));
    }
    return ticks;
  }

  /** The smallest nice step that leaves at most {@link #MAX_TICKS} ticks on the span. */
  static long step(long spanMillis) {
    for (long step : STEPS) {
      if (spanMillis / step + 1 <= MAX_TICKS) {
        return step;
      }
    }
    // Beyond 28 weeks: whole multiples of 4 weeks.
    long longest = STEPS[STEPS.length - 1];
    long multiple = (spanMillis / (MAX_TICKS - 1) + longest - 1) / longest;
    return multiple * longest;
  }

  /**
   * {@code +0s}; below a one-second step milliseconds, then seconds with as many decimals as the
   * step needs ({@code +200ms}, {@code +1.5s}); else as durations read ({@code +1m 30s}).
   */
  static String label(long offsetMillis, long stepMillis) {
    if (offsetMillis == 0) {
      return "+0s";
    }
    if (stepMillis < SECOND) {
      return offsetMillis < SECOND
          ? "+" + offsetMillis + "ms"
          : "+" + BigDecimal.valueOf(offsetMillis, 3).stripTrailingZeros().toPlainString() + "s";
    }
    return "+" + Readable.millis(offsetMillis);
  }
}
