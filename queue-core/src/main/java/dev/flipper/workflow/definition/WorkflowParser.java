package dev.flipper.workflow.definition;

import dev.flipper.text.DurationText;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode;
import dev.flipper.yaml.RawNode.Entry;
import dev.flipper.yaml.RawNode.Mapping;
import dev.flipper.yaml.RawNode.Scalar;
import dev.flipper.yaml.RawNode.Sequence;
import dev.flipper.yaml.RawNode.Where;
import dev.flipper.yaml.Suggestions;
import dev.flipper.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Reads a workflow file (one workflow per file, see docs/workflows.md) into a {@link
 * WorkflowDefinition}. Every problem is reported, each as {@code file:line: message}, and a file
 * with any problem gives no definition. The shapes and types of values are checked here; everything
 * else by the same rules as {@link WorkflowDefinition.Builder#build()}. Stateless and thread-safe.
 */
public final class WorkflowParser {
  static final List<String> TOP_KEYS =
      List.of("workflow", "description", "owners", "emails", "schedule", "jobs");
  static final List<String> SCHEDULE_KEYS =
      List.of("every", "cron", "timezone", "start", "overrun", "maxRunning", "catchUp");
  static final List<String> JOB_KEYS =
      List.of(
          "command",
          "condition",
          "needs",
          "maxAttempts",
          "retryDelay",
          "warnTimeout",
          "abortTimeout",
          "cleanup",
          "emails",
          "priority",
          "disabled");

  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,9}");

  /** A workflow file larger than this is refused before it is read: 1 MiB. */
  public static final long MAX_FILE_BYTES = 1024 * 1024;

  /**
   * A {@code command} or {@code cleanup} longer than this (in UTF-8 bytes) is refused: 128 KiB,
   * what Linux lets one argument of {@code /bin/sh -c} be (MAX_ARG_STRLEN).
   */
  public static final int MAX_COMMAND_BYTES = 128 * 1024;

  private WorkflowParser() {}

  /**
   * Reads {@code file}; problem lines start with the path as given, e.g. {@code
   * workflows/etl.yaml:12:}.
   *
   * @throws InvalidWorkflowException listing every problem (or why the file cannot be read)
   */
  public static WorkflowDefinition read(Path file) {
    Problems problems = new Problems();
    Optional<WorkflowDefinition> definition = read(file, problems);
    problems.throwIfAny(InvalidWorkflowException::new);
    return definition.orElseThrow();
  }

  /** Reads {@code file}, adding its problems to {@code problems}; empty if there were any. */
  public static Optional<WorkflowDefinition> read(Path file, Problems problems) {
    return readText(file, problems).flatMap(text -> parse(file.toString(), text, problems));
  }

  /** The file's text, or empty after adding why it cannot be read. */
  static Optional<String> readText(Path file, Problems problems) {
    Where where = new Where(file.toString(), 0);
    try {
      long size = Files.isRegularFile(file) ? Files.size(file) : 0;
      if (size > MAX_FILE_BYTES) {
        problems.add(
            where,
            "the workflow file is "
                + size
                + " bytes, over the limit of "
                + MAX_FILE_BYTES
                + " bytes (1 MiB); not read");
        return Optional.empty();
      }
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      problems.add(where, "cannot read the workflow file: no such file");
    } catch (CharacterCodingException e) {
      problems.add(where, "cannot read the workflow file: it is not UTF-8 text");
    } catch (IOException e) {
      String why = Files.isDirectory(file) ? "it is a directory" : String.valueOf(e.getMessage());
      problems.add(where, "cannot read the workflow file: " + why);
    }
    return Optional.empty();
  }

  /**
   * Reads YAML {@code text} that problem lines call {@code source}.
   *
   * @throws InvalidWorkflowException listing every problem
   */
  public static WorkflowDefinition parse(String source, String text) {
    Problems problems = new Problems();
    Optional<WorkflowDefinition> definition = parse(source, text, problems);
    problems.throwIfAny(InvalidWorkflowException::new);
    return definition.orElseThrow();
  }

  /** Reads YAML {@code text}, adding its problems to {@code problems}; empty if there were any. */
  public static Optional<WorkflowDefinition> parse(String source, String text, Problems problems) {
    return parseLocated(source, text, problems).map(Parsed::definition);
  }

  /** A definition and where its name was written. */
  record Parsed(WorkflowDefinition definition, Where nameAt) {}

  static Optional<Parsed> parseLocated(String source, String text, Problems problems) {
    Problems own = new Problems();
    Optional<RawNode> root = YamlTreeReader.read(source, true, "", text, own);
    Optional<WorkflowDefinition.Builder> builder = Optional.empty();
    if (root.isEmpty()) {
      if (own.isEmpty()) {
        own.add(
            Where.line(source, 1),
            "the file is empty: a workflow needs at least 'workflow' and 'jobs'");
      }
    } else if (root.get() instanceof Mapping mapping) {
      builder = Optional.of(new FileReader(own).workflow(mapping));
    } else {
      own.add(
          root.get().where(),
          "a workflow file must be a map with at least 'workflow' and 'jobs', got "
              + RawNode.describe(root.get()));
    }
    builder.ifPresent(b -> WorkflowValidator.check(b, own));
    own.lines().forEach(line -> problems.add(Where.NOWHERE, line));
    return own.isEmpty()
        ? builder.map(b -> new Parsed(b.construct(), b.located.at("workflow")))
        : Optional.empty();
  }

  /** Converts one file's tree into builders, recording locations; not thread-safe. */
  private static final class FileReader {
    private final Problems problems;

    FileReader(Problems problems) {
      this.problems = problems;
    }

    WorkflowDefinition.Builder workflow(Mapping root) {
      WorkflowDefinition.Builder w = new WorkflowDefinition.Builder(null);
      Located at = w.located;
      at.put(Located.SELF, root.where());
      for (Entry e : root.entries().values()) {
        String key = e.key();
        RawNode value = e.value();
        switch (key) {
          case "workflow" -> text(at, key, key, value).ifPresent(name -> w.name = name);
          case "description" -> {
            at.put(key, value.where());
            if (!isNull(value)) {
              text(at, key, key, value).ifPresent(w::description);
            }
          }
          case "owners" -> texts(at, key, key, value, w.owners::add);
          case "emails" -> texts(at, key, key, value, w.emails::add);
          case "schedule" -> schedule(e).ifPresent(w::schedule);
          case "jobs" -> jobs(w, e);
          default -> problems.add(e.keyWhere(), unknownKey("", key, TOP_KEYS));
        }
      }
      return w;
    }

    private Optional<Schedule.Builder> schedule(Entry entry) {
      if (!(entry.value() instanceof Mapping map)) {
        problems.add(
            entry.value().where(),
            "'schedule' must be a map with 'every' or 'cron', got "
                + RawNode.describe(entry.value()));
        return Optional.empty();
      }
      Schedule.Builder s = new Schedule.Builder();
      Located at = s.located;
      at.put(Located.SELF, entry.keyWhere());
      for (Entry e : map.entries().values()) {
        String key = e.key();
        String path = "schedule." + key;
        RawNode value = e.value();
        switch (key) {
          case "every" -> duration(at, key, path, value).ifPresent(s::every);
          case "cron" -> text(at, key, path, value).ifPresent(s::cron);
          case "timezone" ->
              text(at, key, path, value).ifPresent(t -> timezone(at, path, value, t, s));
          case "start" -> text(at, key, path, value).ifPresent(t -> start(at, path, value, t, s));
          case "overrun" ->
              text(at, key, path, value).ifPresent(t -> overrun(at, path, value, t, s));
          case "maxRunning" -> integer(at, key, path, value).ifPresent(s::maxRunning);
          case "catchUp" -> integer(at, key, path, value).ifPresent(s::catchUp);
          default -> problems.add(e.keyWhere(), unknownKey("schedule", key, SCHEDULE_KEYS));
        }
      }
      return Optional.of(s);
    }

    private void timezone(Located at, String path, RawNode value, String text, Schedule.Builder s) {
      try {
        s.timezone(ZoneId.of(text.strip()));
      } catch (DateTimeException e) {
        Set<String> zones = new TreeSet<>(ZoneId.getAvailableZoneIds());
        String hint =
            Suggestions.closest(text.strip(), zones)
                .map(z -> " (did you mean '" + z + "'?)")
                .orElse("");
        problems.add(
            value.where(),
            "'"
                + path
                + "' must be a time zone like Europe/Berlin or UTC, got '"
                + text
                + "'"
                + hint);
        at.markBroken("timezone");
      }
    }

    private void start(Located at, String path, RawNode value, String text, Schedule.Builder s) {
      try {
        s.start(OffsetDateTime.parse(text.strip()).toInstant());
      } catch (DateTimeParseException e) {
        problems.add(
            value.where(),
            "'"
                + path
                + "' must be a date and time with an offset like "
                + "2026-01-01T00:00:00Z or 2026-01-01T03:00:00+01:00, got '"
                + text
                + "'");
        at.markBroken("start");
      }
    }

    private void overrun(Located at, String path, RawNode value, String text, Schedule.Builder s) {
      List<String> names = Arrays.stream(OverrunPolicy.values()).map(Enum::name).toList();
      Optional<String> match =
          names.stream().filter(n -> n.equalsIgnoreCase(text.strip())).findFirst();
      if (match.isPresent()) {
        s.overrun(OverrunPolicy.valueOf(match.get()));
        return;
      }
      String hint =
          Suggestions.closest(text.strip(), names)
              .map(n -> " (did you mean '" + n + "'?)")
              .orElse("");
      problems.add(
          value.where(),
          "'"
              + path
              + "' must be one of "
              + String.join(", ", names)
              + ", got '"
              + text
              + "'"
              + hint);
      at.markBroken("overrun");
    }

    private void jobs(WorkflowDefinition.Builder w, Entry entry) {
      w.located.put("jobs", entry.keyWhere());
      if (isNull(entry.value())) {
        return; // the validator says the workflow needs a job
      }
      if (!(entry.value() instanceof Mapping map)) {
        problems.add(
            entry.value().where(),
            "'jobs' must be a map from job names to jobs (each with at least "
                + "'command'), got "
                + RawNode.describe(entry.value()));
        w.located.markBroken("jobs");
        return;
      }
      for (Entry e : map.entries().values()) {
        w.job(job(e));
      }
    }

    private JobDefinition.Builder job(Entry entry) {
      JobDefinition.Builder j = new JobDefinition.Builder(entry.key());
      Located at = j.located;
      at.put(Located.SELF, entry.keyWhere());
      String prefix = "jobs." + entry.key();
      if (!(entry.value() instanceof Mapping map)) {
        problems.add(
            entry.value().where(),
            "'"
                + prefix
                + "' must be a map with at least 'command', got "
                + RawNode.describe(entry.value()));
        at.markBroken("command");
        return j;
      }
      for (Entry e : map.entries().values()) {
        String key = e.key();
        String path = prefix + "." + key;
        RawNode value = e.value();
        switch (key) {
          case "command" -> command(at, key, path, value).ifPresent(j::command);
          case "condition" -> bool(at, key, path, value).ifPresent(j::condition);
          case "needs" -> texts(at, key, path, value, j.needs::add);
          case "maxAttempts" -> integer(at, key, path, value).ifPresent(j::maxAttempts);
          case "retryDelay" -> duration(at, key, path, value).ifPresent(j::retryDelay);
          case "warnTimeout" -> duration(at, key, path, value).ifPresent(j::warnTimeout);
          case "abortTimeout" -> duration(at, key, path, value).ifPresent(j::abortTimeout);
          case "cleanup" -> command(at, key, path, value).ifPresent(j::cleanup);
          case "emails" -> texts(at, key, path, value, j.emails::add);
          case "priority" -> integer(at, key, path, value).ifPresent(j::priority);
          case "disabled" -> bool(at, key, path, value).ifPresent(j::disabled);
          default -> problems.add(e.keyWhere(), unknownKey(prefix, key, JOB_KEYS));
        }
      }
      return j;
    }

    /** A scalar's text; records where it was written, or reports and marks the key broken. */
    /** A shell command: text of at most {@link #MAX_COMMAND_BYTES} UTF-8 bytes. */
    private Optional<String> command(Located at, String key, String path, RawNode value) {
      Optional<String> text = text(at, key, path, value);
      if (text.isPresent()) {
        int bytes = text.get().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_COMMAND_BYTES) {
          problems.add(
              value.where(),
              "'"
                  + path
                  + "' is "
                  + bytes
                  + " bytes, over the limit of "
                  + MAX_COMMAND_BYTES
                  + " bytes (128 KiB, the longest command the worker can run)");
          at.markBroken(key);
          return Optional.empty();
        }
      }
      return text;
    }

    private Optional<String> text(Located at, String key, String path, RawNode value) {
      at.put(key, value.where());
      if (value instanceof Scalar scalar && !scalar.isNull()) {
        return Optional.of(scalar.text());
      }
      if (isNull(value)) {
        problems.add(value.where(), "'" + path + "' has no value");
      } else {
        problems.add(
            value.where(), "'" + path + "' must be a string, got " + RawNode.describe(value));
      }
      at.markBroken(key);
      return Optional.empty();
    }

    private Optional<Integer> integer(Located at, String key, String path, RawNode value) {
      return text(at, key, path, value)
          .flatMap(
              text -> {
                if (INTEGER.matcher(text.strip()).matches()) {
                  return Optional.of(Integer.parseInt(text.strip()));
                }
                problems.add(
                    value.where(), "'" + path + "' must be an integer, got '" + text + "'");
                at.markBroken(key);
                return Optional.empty();
              });
    }

    private Optional<Boolean> bool(Located at, String key, String path, RawNode value) {
      return text(at, key, path, value)
          .flatMap(
              text -> {
                String t = text.strip().toLowerCase(Locale.ROOT);
                if (t.equals("true") || t.equals("false")) {
                  return Optional.of(t.equals("true"));
                }
                problems.add(
                    value.where(), "'" + path + "' must be true or false, got '" + text + "'");
                at.markBroken(key);
                return Optional.empty();
              });
    }

    private Optional<Duration> duration(Located at, String key, String path, RawNode value) {
      return text(at, key, path, value)
          .flatMap(
              text -> {
                Optional<Duration> d = DurationText.parse(text);
                if (d.isEmpty()) {
                  problems.add(
                      value.where(),
                      "'"
                          + path
                          + "' must be a duration like "
                          + DurationText.FORMS
                          + ", got '"
                          + text
                          + "'");
                  at.markBroken(key);
                }
                return d;
              });
    }

    /** A list of strings; records where the list and each item were written. */
    private void texts(Located at, String key, String path, RawNode value, Consumer<String> add) {
      at.put(key, value.where());
      if (isNull(value)) {
        return;
      }
      if (!(value instanceof Sequence sequence)) {
        problems.add(
            value.where(),
            "'" + path + "' must be a list like [a, b], got " + RawNode.describe(value));
        at.markBroken(key);
        return;
      }
      int kept = 0;
      for (int i = 0; i < sequence.items().size(); i++) {
        RawNode item = sequence.items().get(i);
        if (item instanceof Scalar scalar && !scalar.isNull()) {
          at.put(key + "[" + kept++ + "]", item.where());
          add.accept(scalar.text());
        } else {
          problems.add(
              item.where(),
              "'" + path + "[" + i + "]' must be a string, got " + RawNode.describe(item));
        }
      }
    }

    private static boolean isNull(RawNode node) {
      return node instanceof Scalar scalar && scalar.isNull();
    }

    private static String unknownKey(String parent, String key, List<String> valid) {
      String path = parent.isEmpty() ? key : parent + "." + key;
      Optional<String> close = Suggestions.closest(key, valid);
      if (close.isPresent()) {
        return "unknown key '"
            + path
            + "' (did you mean '"
            + (parent.isEmpty() ? "" : parent + ".")
            + close.get()
            + "'?)";
      }
      return "unknown key '"
          + path
          + "' (valid keys"
          + (parent.isEmpty() ? "" : " in '" + parent + "'")
          + ": "
          + String.join(", ", valid)
          + ")";
    }
  }
}
