package dev.flipper.text;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How durations and times are shown to people, the same in the CLI, the UI, mails and error
 * messages: durations as their two largest units ({@code 15s}, {@code 1h 2m}, {@code 3d 4h}, never
 * ISO {@code PT15S}), times in UTC to the second and labelled ({@code 2026-11-28 10:15:03 UTC}).
 * JSON keeps machine forms (ISO-8601 times, numbers with the unit in the field name). Stateless.
 */
public final class Readable {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private static final long SECOND = 1000;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  private Readable() {}

  /**
   * {@code 0s}, {@code 850ms} below a second, {@code 15s} below a minute, else the two largest
   * units with the rest cut off: {@code 2m 5s}, {@code 1h 2m}, {@code 3d 4h}; a zero second unit is
   * left out ({@code 1h}).
   */
  public static String duration(Duration duration) {
    if (duration.isNegative()) {
      return "-" + duration(duration.negated());
    }
    long ms = duration.toMillis();
    if (ms < SECOND) {
      return ms == 0 ? "0s" : ms + "ms";
    }
    if (ms < MINUTE) {
      return ms / SECOND + "s";
    }
    if (ms < HOUR) {
      return two(ms / MINUTE, "m", ms % MINUTE / SECOND, "s");
    }
    if (ms < DAY) {
      return two(ms / HOUR, "h", ms % HOUR / MINUTE, "m");
    }
    return two(ms / DAY, "d", ms % DAY / HOUR, "h");
  }

  /** {@link #duration} of a number of milliseconds. */
  public static String millis(long millis) {
    return duration(Duration.ofMillis(millis));
  }

  /** {@code 2026-11-28 10:15:03 UTC}: UTC, to the second. */
  public static String time(Instant instant) {
    return TIME.format(instant);
  }

  private static String two(long big, String bigUnit, long small, String smallUnit) {
    return small == 0 ? big + bigUnit : big + bigUnit + " " + small + smallUnit;
  }
}
