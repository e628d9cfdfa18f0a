package dev.flipper.text;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as written in the config and in workflow files: a whole number and one unit, {@code
 * 500ms}, {@code 30s}, {@code 10m}, {@code 24h} or {@code 7d}. Nothing else is accepted, so {@code
 * 10} (no unit) or {@code 1.5h} are errors rather than guesses. Stateless.
 */
public final class DurationText {
  /** The accepted forms, as shown in error messages. */
  public static final String FORMS = "500ms, 30s, 10m, 24h or 7d";

  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  private DurationText() {}

  /** The duration, or empty when the text is not one of the accepted forms. */
  public static Optional<Duration> parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long amount = Long.parseLong(m.group(1));
    return Optional.of(
        switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        });
  }

  /**
   * The shortest accepted form that is exact, e.g. 7d, 90s, 1500ms; {@link #parse} reads it back.
   */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms != 0 && ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    }
    if (ms != 0 && ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    }
    if (ms != 0 && ms % 60_000L == 0) {
      return ms / 60_000L + "m";
    }
    if (ms % 1000L == 0) {
      return ms / 1000L + "s";
    }
    return ms + "ms";
  }
}
