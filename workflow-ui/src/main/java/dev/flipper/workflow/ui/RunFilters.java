package dev.flipper.workflow.ui;

import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunSort;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The filters, sort and page of a runs list or a job history, as GET parameters: {@code status} and
 * {@code trigger} (repeatable; a trigger may also list several, comma-separated), {@code from} and
 * {@code to} (a UTC date {@code 2026-11-20} or date and time {@code 2026-11-20T10:00}; a {@code to}
 * date includes that whole day), {@code q} (text), {@code sort} (newest, oldest, longest,
 * shortest), {@code page} (1-based) and {@code size} (1 to {@link #MAX_SIZE}). Empty values count
 * as absent (a filter form sends its empty fields). Immutable.
 *
 * @param from as given, for the form; null if absent
 * @param to as given, for the form; null if absent
 * @param startFrom {@code from} as epoch milliseconds (inclusive); null if absent
 * @param startBefore {@code to} as epoch milliseconds (exclusive); null if absent
 */
public record RunFilters(
    List<String> statuses,
    List<String> triggers,
    String from,
    String to,
    Long startFrom,
    Long startBefore,
    String q,
    String sort,
    int page,
    int size) {
  public static final int DEFAULT_SIZE = 50;
  public static final int MAX_SIZE = 500;

  /** What a run's {@code status} may be (InstanceStatus names). */
  public static final List<String> RUN_STATUSES =
      List.of("RUNNING", "SUCCESS", "FAILURE", "ABORTED", "PAUSED", "DRAINED");

  /** What an execution's {@code status} may be (as the run history records it). */
  public static final List<String> EXECUTION_STATUSES =
      List.of("RUNNING", "SUCCESS", "FAILURE", "ABORTED", "DISABLED");

  public static final List<String> SORTS =
      Arrays.stream(RunSort.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).toList();

  public RunFilters {
    statuses = List.copyOf(statuses);
    triggers = List.copyOf(triggers);
  }

  /** No filter, newest first, the first page of the default size. */
  public static RunFilters none() {
    return parse(Map.of(), RUN_STATUSES);
  }

  /**
   * The filters of a request's query parameters; unknown parameters are ignored.
   *
   * @param allowedStatuses what {@code status} may name (case-insensitive)
   * @throws IllegalArgumentException naming the parameter, the value and what is allowed
   */
  public static RunFilters parse(Map<String, List<String>> params, List<String> allowedStatuses) {
    Set<String> statuses = new LinkedHashSet<>();
    for (String value : values(params, "status")) {
      String status = value.toUpperCase(Locale.ROOT);
      if (!allowedStatuses.contains(status)) {
        throw bad("status", value, "one of " + String.join(", ", allowedStatuses));
      }
      statuses.add(status);
    }
    Set<String> triggers = new LinkedHashSet<>();
    for (String value : values(params, "trigger")) {
      Arrays.stream(value.split(","))
          .map(String::strip)
          .filter(t -> !t.isEmpty())
          .forEach(triggers::add);
    }
    String from = single(params, "from");
    String to = single(params, "to");
    Long startFrom = from == null ? null : instant("from", from, false);
    Long startBefore = to == null ? null : instant("to", to, true);
    if (startFrom != null && startBefore != null && startFrom >= startBefore) {
      throw new IllegalArgumentException(
          "parameter 'from' (" + from + ") must be before 'to' (" + to + ")");
    }
    String sort = single(params, "sort");
    if (sort != null) {
      sort = sort.toLowerCase(Locale.ROOT);
      if (!SORTS.contains(sort)) {
        throw bad("sort", single(params, "sort"), "one of " + String.join(", ", SORTS));
      }
    }
    int size = number(params, "size", DEFAULT_SIZE, 1, MAX_SIZE);
    int page = number(params, "page", 1, 1, Integer.MAX_VALUE / size);
    return new RunFilters(
        List.copyOf(statuses),
        List.copyOf(triggers),
        from,
        to,
        startFrom,
        startBefore,
        single(params, "q"),
        sort == null ? "newest" : sort,
        page,
        size);
  }

  /** How many rows the pages before this one hold. */
  public int offset() {
    return (page - 1) * size;
  }

  /** This page of a workflow's runs. */
  public RunQuery runs(String workflow) {
    return new RunQuery(
        workflow,
        Set.copyOf(statuses),
        Set.copyOf(triggers),
        startFrom,
        startBefore,
        q,
        RunSort.valueOf(sort.toUpperCase(Locale.ROOT)),
        offset(),
        size);
  }

  /** This page of one job's executions (only the status filter applies). */
  public ExecutionQuery executions(String workflow, String job) {
    return new ExecutionQuery(workflow, job, List.of(), Set.copyOf(statuses), offset(), size);
  }

  /** Whether any filter narrows the list. */
  public boolean filtered() {
    return !statuses.isEmpty() || !triggers.isEmpty() || from != null || to != null || q != null;
  }

  /**
   * These filters at another page: {@code ?status=...&page=n} (defaults left out; "" when all are).
   */
  public String atPage(int page) {
    return query(sort, page);
  }

  /** These filters sorted otherwise, from the first page. */
  public String sortedBy(String sort) {
    return query(sort, 1);
  }

  private String query(String sort, int page) {
    List<String> parts = new ArrayList<>();
    statuses.forEach(s -> parts.add("status=" + encode(s)));
    triggers.forEach(t -> parts.add("trigger=" + encode(t)));
    if (from != null) {
      parts.add("from=" + encode(from));
    }
    if (to != null) {
      parts.add("to=" + encode(to));
    }
    if (q != null) {
      parts.add("q=" + encode(q));
    }
    if (!sort.equals("newest")) {
      parts.add("sort=" + sort);
    }
    if (size != DEFAULT_SIZE) {
      parts.add("size=" + size);
    }
    if (page != 1) {
      parts.add("page=" + page);
    }
    return parts.isEmpty() ? "" : "?" + String.join("&", parts);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static List<String> values(Map<String, List<String>> params, String name) {
    return params.getOrDefault(name, List.of()).stream()
        .map(String::strip)
        .filter(v -> !v.isEmpty())
        .collect(Collectors.toList());
  }

  private static String single(Map<String, List<String>> params, String name) {
    List<String> values = values(params, name);
    if (values.size() > 1) {
      throw new IllegalArgumentException(
          "parameter '" + name + "' is given " + values.size() + " times; give it at most once");
    }
    return values.isEmpty() ? null : values.get(0);
  }

  private static int number(
      Map<String, List<String>> params, String name, int otherwise, int min, int max) {
    String value = single(params, name);
    if (value == null) {
      return otherwise;
    }
    try {
      int number = Integer.parseInt(value);
      if (number >= min && number <= max) {
        return number;
      }
    } catch (NumberFormatException e) {
      // the message below says what is allowed
    }
    throw bad(name, value, "a whole number from " + min + " to " + max);
  }

  /**
   * A UTC date or date and time as epoch milliseconds; a date at the end of a range ({@code
   * endOfDay}) means the start of the next day, so that day is included.
   */
  private static long instant(String name, String value, boolean endOfDay) {
    try {
      if (value.length() == 10) {
        LocalDate date = LocalDate.parse(value);
        return (endOfDay ? date.plusDays(1) : date)
            .atStartOfDay(ZoneOffset.UTC)
            .toInstant()
            .toEpochMilli();
      }
      return LocalDateTime.parse(value.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw bad(name, value, "a UTC date like 2026-11-20 or a date and time like 2026-11-20T10:00");
    }
  }

  private static IllegalArgumentException bad(String name, String value, String allowed) {
    return new IllegalArgumentException(
        "parameter '" + name + "' is '" + value + "'; use " + allowed);
  }
}
