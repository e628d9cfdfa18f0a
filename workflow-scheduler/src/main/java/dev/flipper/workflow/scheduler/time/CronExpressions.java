package dev.flipper.workflow.scheduler.time;

import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the cron expressions a workflow's {@code schedule.cron} may hold, with cron-utils: 5 fields
 * (minute hour day-of-month month day-of-week), 6 fields with seconds first, or a macro
 * ({@code @hourly} ...). Day fields also take {@code ?}, {@code L}, {@code W} and {@code #} like
 * queue-core's shape check. Stateless and thread-safe.
 *
 * <p>When both day fields are restricted, a day matches if <em>either</em> does, as in Unix cron
 * ({@code 0 0 13 * 5} is every 13th and every Friday). cron-utils 9.2.1 matches both instead, so
 * such an expression is read as two expressions whose slots are merged. As in Vixie cron, a day
 * field starting with {@code *} (also {@code *}/2) counts as unrestricted.
 */
public final class CronExpressions {

  private static final Map<String, String> MACROS =
      Map.of(
          "@yearly", "0 0 1 1 *",
          "@annually", "0 0 1 1 *",
          "@monthly", "0 0 1 * *",
          "@weekly", "0 0 * * 0",
          "@daily", "0 0 * * *",
          "@midnight", "0 0 * * *",
          "@hourly", "0 * * * *");

  private static final CronParser FIVE = new CronParser(definition(false));
  private static final CronParser SIX = new CronParser(definition(true));

  private CronExpressions() {}

  /**
   * The execution times of {@code expression}; the slots are the union of those of every element.
   *
   * @throws IllegalArgumentException naming the expression and what is wrong with it
   */
  public static List<ExecutionTime> parse(String expression) {
    String text = expression.strip();
    if (text.startsWith("@")) {
      String expanded = MACROS.get(text.toLowerCase(Locale.ROOT));
      if (expanded == null) {
        throw new IllegalArgumentException(
            "cron '"
                + text
                + "' is not a macro (macros: "
                + String.join(", ", MACROS.keySet().stream().sorted().toList())
                + ")");
      }
      text = expanded;
    }
    String[] fields = text.isEmpty() ? new String[0] : text.split("\\s+");
    if (fields.length != 5 && fields.length != 6) {
      throw new IllegalArgumentException(
          "cron '"
              + expression.strip()
              + "' must have 5 fields (minute hour "
              + "day-of-month month day-of-week) or 6 (seconds first), got "
              + fields.length);
    }
    CronParser parser = fields.length == 5 ? FIVE : SIX;
    int dom = fields.length - 3;
    int dow = fields.length - 1;
    if (fields[dom].equals("?") && fields[dow].equals("?")) {
      throw new IllegalArgumentException(
          "cron '"
              + expression.strip()
              + "' has '?' in both day fields; put '*' in "
              + "one of them");
    }
    List<String> variants = new ArrayList<>();
    if (restricted(fields[dom]) && restricted(fields[dow])) {
      variants.add(with(fields, dow, "*"));
      variants.add(with(fields, dom, "*"));
    } else {
      variants.add(String.join(" ", fields));
    }
    List<ExecutionTime> times = new ArrayList<>();
    for (String variant : variants) {
      try {
        times.add(ExecutionTime.forCron(parser.parse(variant)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "cron '" + expression.strip() + "' is not valid: " + e.getMessage(), e);
      }
    }
    return List.copyOf(times);
  }

  /**
   * What is wrong with {@code expression}, as a sentence; empty if the scheduler can run it.
   * Besides what {@link #parse} refuses, an expression that never fires ({@code 0 0 30 2 *}) is a
   * problem.
   */
  public static Optional<String> problem(String expression) {
    List<ExecutionTime> times;
    try {
      times = parse(expression);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    // Any day-and-month combination that exists comes round within a leap-year cycle from 2000.
    ZonedDateTime from = ZonedDateTime.of(1999, 12, 31, 0, 0, 0, 0, ZoneOffset.UTC);
    boolean fires = times.stream().anyMatch(time -> time.nextExecution(from).isPresent());
    return fires
        ? Optional.empty()
        : Optional.of("cron '" + expression.strip() + "' never fires (no such date)");
  }

  private static boolean restricted(String field) {
    return !field.startsWith("*") && !field.equals("?");
  }

  private static String with(String[] fields, int index, String value) {
    String[] copy = fields.clone();
    copy[index] = value;
    return String.join(" ", copy);
  }

  private static CronDefinition definition(boolean seconds) {
    CronDefinitionBuilder builder = CronDefinitionBuilder.defineCron();
    if (seconds) {
      builder = builder.withSeconds().withValidRange(0, 59).withStrictRange().and();
    }
    return builder
        .withMinutes()
        .withValidRange(0, 59)
        .withStrictRange()
        .and()
        .withHours()
        .withValidRange(0, 23)
        .withStrictRange()
        .and()
        .withDayOfMonth()
        .withValidRange(1, 31)
        .supportsL()
        .supportsW()
        .supportsLW()
        .supportsQuestionMark()
        .withStrictRange()
        .and()
        .withMonth()
        .withValidRange(1, 12)
        .withStrictRange()
        .and()
        .withDayOfWeek()
        .withValidRange(0, 7)
        .withMondayDoWValue(1)
        .withIntMapping(7, 0)
        .supportsHash()
        .supportsL()
        .supportsQuestionMark()
        .withStrictRange()
        .and()
        .instance();
  }
}
