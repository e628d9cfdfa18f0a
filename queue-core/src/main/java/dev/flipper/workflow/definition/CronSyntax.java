package dev.flipper.workflow.definition;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A shape check of cron expressions, so that a typo fails at validation rather than when the
 * scheduler reads it: 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds
 * first, or a macro such as {@code @daily}. Each field is {@code *}, {@code ?} (day fields), a
 * number or name in range, a range {@code a-b}, a step {@code x/n}, or a comma list of those;
 * {@code L}, {@code W} and {@code #} are accepted in the day fields as Quartz-style cron allows. It
 * does not decide when an expression fires: the scheduler does that with a cron library, which may
 * still refuse a rare combination this check lets through. Stateless.
 */
final class CronSyntax {
  private record Field(String name, int min, int max, List<String> names) {}

  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
  private static final Field SECOND = new Field("second", 0, 59, List.of());
  private static final List<Field> FIVE =
      List.of(
          new Field("minute", 0, 59, List.of()),
          new Field("hour", 0, 23, List.of()),
          new Field("day-of-month", 1, 31, List.of()),
          new Field("month", 1, 12, MONTHS),
          new Field("day-of-week", 0, 7, DAYS));
  private static final Set<String> MACROS =
      Set.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");
  private static final Pattern STEP = Pattern.compile("(.+)/(\\d+)");
  private static final Pattern RANGE = Pattern.compile("([^-]+)-([^-]+)");

  private CronSyntax() {}

  /**
   * What is wrong with {@code expression}, as the end of a sentence starting with the key; empty if
   * fine.
   */
  static Optional<String> problem(String expression) {
    String text = expression.strip();
    if (text.startsWith("@")) {
      return MACROS.contains(text.toLowerCase(Locale.ROOT))
          ? Optional.empty()
          : Optional.of(
              "is not a cron macro: '"
                  + text
                  + "' (macros: @yearly, @monthly, @weekly, @daily, @hourly)");
    }
    String[] parts = text.isEmpty() ? new String[0] : text.split("\\s+");
    if (parts.length != 5 && parts.length != 6) {
      return Optional.of(
          "must have 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got "
              + parts.length
              + " in '"
              + text
              + "'");
    }
    List<Field> fields = parts.length == 5 ? FIVE : prepend(SECOND, FIVE);
    for (int i = 0; i < parts.length; i++) {
      Optional<String> problem = field(fields.get(i), parts[i]);
      if (problem.isPresent()) {
        return Optional.of(
            "has a bad "
                + fields.get(i).name()
                + " field '"
                + parts[i]
                + "' in '"
                + text
                + "': "
                + problem.get());
      }
    }
    return Optional.empty();
  }

  private static List<Field> prepend(Field first, List<Field> rest) {
    return Stream.concat(Stream.of(first), rest.stream()).toList();
  }

  private static Optional<String> field(Field field, String text) {
    boolean dayField = field.name().startsWith("day");
    if (text.equals("?") && dayField) {
      return Optional.empty();
    }
    for (String item : text.split(",", -1)) {
      Optional<String> problem = item(field, item, dayField);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> item(Field field, String item, boolean dayField) {
    String base = item;
    Matcher step = STEP.matcher(item);
    if (step.matches()) {
      base = step.group(1);
      String n = step.group(2);
      if (n.length() > 2 || Integer.parseInt(n) < 1 || Integer.parseInt(n) > field.max()) {
        return Optional.of("the step " + n + " must be between 1 and " + field.max());
      }
    }
    if (base.equals("*")) {
      return Optional.empty();
    }
    if (dayField
        && base.matches("(?i)L|LW|L-\\d{1,2}|\\d{1,2}W|[0-7A-Za-z]{1,3}L|[0-7A-Za-z]{1,3}#[1-5]")) {
      return Optional.empty(); // last day, nearest weekday, n-th weekday: shapes only
    }
    Matcher range = RANGE.matcher(base);
    if (range.matches()) {
      Optional<String> low = value(field, range.group(1));
      return low.isPresent() ? low : value(field, range.group(2));
    }
    return value(field, base);
  }

  private static Optional<String> value(Field field, String text) {
    if (field.names().contains(text.toUpperCase(Locale.ROOT))) {
      return Optional.empty();
    }
    String expected =
        field.min()
            + "-"
            + field.max()
            + (field.names().isEmpty()
                ? ""
                : " or a name like "
                    + field.names().get(0)
                    + "-"
                    + field.names().get(field.names().size() - 1));
    if (!text.matches("\\d{1,4}")) {
      return Optional.of("expected " + expected);
    }
    int value = Integer.parseInt(text);
    if (value < field.min() || value > field.max()) {
      return Optional.of(value + " is out of range " + expected);
    }
    return Optional.empty();
  }
}
