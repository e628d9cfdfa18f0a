package dev.flipper.workflow.worker.exec;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line a worker writes where it cut the middle out of a log that outgrew {@code
 * workers.maxLogBytes}, for example {@code --- flipper: 123,456,789 bytes cut here
 * (workers.maxLogBytes = 64 MiB) ---}; readers of logs ({@code flipper workflow logs}, the UI) look
 * for it to say what was cut. Stateless.
 */
public final class LogCutMarker {
  private static final Pattern LINE =
      Pattern.compile(
          "^--- flipper: ([0-9,]+) bytes cut here \\(([^)\n]*)\\) ---$", Pattern.MULTILINE);

  private LogCutMarker() {}

  /** The marker line (without its newline) for {@code cut} bytes dropped under cap {@code max}. */
  public static String line(long cut, long maxBytes) {
    return String.format(Locale.ROOT, "--- flipper: %,d bytes cut here", cut)
        + " (workers.maxLogBytes = "
        + size(maxBytes)
        + ") ---";
  }

  /** How many bytes the first marker line in {@code text} says were cut, if there is one. */
  public static Optional<Long> find(String text) {
    Matcher m = LINE.matcher(text);
    return m.find() ? Optional.of(Long.parseLong(m.group(1).replace(",", ""))) : Optional.empty();
  }

  /**
   * {@code 64 MiB}, {@code 64 KiB} or {@code 1000 bytes}: the unit the size is a whole number of.
   */
  static String size(long bytes) {
    if (bytes > 0 && bytes % (1 << 30) == 0) {
      return bytes / (1 << 30) + " GiB";
    }
    if (bytes > 0 && bytes % (1 << 20) == 0) {
      return bytes / (1 << 20) + " MiB";
    }
    if (bytes > 0 && bytes % (1 << 10) == 0) {
      return bytes / (1 << 10) + " KiB";
    }
    return bytes + " bytes";
  }
}
