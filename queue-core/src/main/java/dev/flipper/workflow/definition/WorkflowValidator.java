package dev.flipper.workflow.definition;

import dev.flipper.text.DurationText;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode.Where;
import dev.flipper.yaml.Suggestions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one set of rules for workflow definitions, shared by the YAML parser, the Java builders and
 * the records' constructors. It reads builders (whose values may be missing or wrong) and reports
 * every problem at the location the parser recorded, or at no location for Java callers; messages
 * name the key path ({@code 'jobs.extract.maxAttempts'}) or the job, so they read the same either
 * way. Stateless.
 */
final class WorkflowValidator {
  /** The rule for workflow and job names, as told in messages. */
  static final String NAME_RULE = "use 1 to 100 letters, digits, _ or -";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,100}");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
  private static final int MAX_LISTED_JOBS = 10;

  /** A placeholder, or an escaped {@code %%} before what would look like one (group 1: name). */
  private static final Pattern PLACEHOLDER = Pattern.compile("%%|%\\(([^%)]*)\\)s");

  private static final String RAW_SUFFIX = ":raw";

  private WorkflowValidator() {}

  static void check(WorkflowDefinition.Builder w, Problems problems) {
    Located at = w.located;
    if (w.name == null) {
      if (!at.isBroken("workflow")) {
        problems.add(at.at("workflow"), "'workflow' is required (the workflow's name)");
      }
    } else {
      name("workflow", w.name, at.at("workflow"), problems);
    }
    texts("owners", w.owners, at, problems, false);
    texts("emails", w.emails, at, problems, true);
    if (w.schedule != null) {
      checkSchedule(w.schedule, problems);
    }
    if (w.jobs.isEmpty()) {
      if (!at.isBroken("jobs")) {
        problems.add(
            at.at("jobs"),
            at.has("jobs") ? "'jobs' must list at least one job" : "'jobs' is required");
      }
      return;
    }
    Map<String, JobDefinition.Builder> byName = new LinkedHashMap<>();
    for (JobDefinition.Builder job : w.jobs) {
      checkJob(job, problems);
      if (job.name != null && byName.putIfAbsent(job.name, job) != null) {
        problems.add(job.located.at(Located.SELF), "duplicate job '" + job.name + "'");
      }
    }
    Map<String, List<String>> parents = new HashMap<>();
    for (JobDefinition.Builder job : byName.values()) {
      List<String> known = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < job.needs.size(); i++) {
        String parent = job.needs.get(i);
        if (parent == null) {
          continue; // checkJob reported it
        }
        Where where = job.located.at("needs[" + i + "]");
        if (!seen.add(parent)) {
          problems.add(where, "job '" + job.name + "' needs '" + parent + "' twice");
        } else if (!byName.containsKey(parent)) {
          problems.add(
              where,
              "job '"
                  + job.name
                  + "' needs unknown job '"
                  + parent
                  + "'"
                  + hint(parent, byName, job));
        } else {
          known.add(parent);
        }
      }
      parents.put(job.name, known);
    }
    for (List<String> cycle : WorkflowGraph.cycles(List.copyOf(byName.keySet()), parents)) {
      JobDefinition.Builder first = byName.get(cycle.get(0));
      String closing = cycle.get(cycle.size() - 2);
      problems.add(
          first.located.at("needs[" + first.needs.indexOf(closing) + "]"),
          "cycle: " + String.join(" -> ", cycle));
    }
  }

  private static String hint(
      String wrong, Map<String, JobDefinition.Builder> byName, JobDefinition.Builder job) {
    List<String> others = byName.keySet().stream().filter(n -> !n.equals(job.name)).toList();
    Optional<String> close = Suggestions.closest(wrong, others);
    if (close.isPresent()) {
      return " (did you mean '" + close.get() + "'?)";
    }
    return others.isEmpty() || others.size() > MAX_LISTED_JOBS
        ? ""
        : " (jobs: " + String.join(", ", others) + ")";
  }

  /** The rules of one job that do not need the other jobs. */
  static void checkJob(JobDefinition.Builder job, Problems problems) {
    Located at = job.located;
    if (job.name == null) {
      problems.add(at.at(Located.SELF), "a job needs a name (" + NAME_RULE + ")");
    } else {
      name("job", job.name, at.at(Located.SELF), problems);
    }
    String path = "jobs." + job.name;
    if (job.command == null) {
      if (!at.isBroken("command")) {
        problems.add(
            at.at("command"), "'" + path + ".command' is required (the shell command to run)");
      }
    } else if (job.command.isBlank()) {
      problems.add(at.at("command"), "'" + path + ".command' must not be empty");
    } else {
      placeholders(path + ".command", job.command, at.at("command"), problems);
    }
    if (job.condition && !job.needs.isEmpty()) {
      problems.add(
          at.at("needs"),
          "job '"
              + job.name
              + "' is a condition, so it cannot have 'needs' "
              + "(a condition starts with the instance; make the jobs that wait for it need it instead)");
    }
    for (int i = 0; i < job.needs.size(); i++) {
      if (job.needs.get(i) == null) {
        problems.add(
            at.at("needs[" + i + "]"),
            "'" + path + ".needs[" + i + "]' must be a job name, got nothing");
      }
    }
    if (job.maxAttempts != null && job.maxAttempts < 1) {
      problems.add(
          at.at("maxAttempts"),
          "'" + path + ".maxAttempts' must be at least 1, got " + job.maxAttempts);
    }
    wholeMillis(path + ".retryDelay", job.retryDelay, at.at("retryDelay"), problems);
    wholeMillis(path + ".warnTimeout", job.warnTimeout, at.at("warnTimeout"), problems);
    wholeMillis(path + ".abortTimeout", job.abortTimeout, at.at("abortTimeout"), problems);
    if (job.retryDelay != null && job.retryDelay.isNegative()) {
      problems.add(
          at.at("retryDelay"),
          "'" + path + ".retryDelay' must not be negative, got " + show(job.retryDelay));
    }
    positive(path + ".warnTimeout", job.warnTimeout, at.at("warnTimeout"), problems);
    positive(path + ".abortTimeout", job.abortTimeout, at.at("abortTimeout"), problems);
    if (job.warnTimeout != null
        && job.abortTimeout != null
        && isPositive(job.warnTimeout)
        && job.warnTimeout.compareTo(job.abortTimeout) >= 0) {
      problems.add(
          at.at("warnTimeout"),
          "'"
              + path
              + ".warnTimeout' ("
              + DurationText.format(job.warnTimeout)
              + ") must be less than '"
              + path
              + ".abortTimeout' ("
              + DurationText.format(job.abortTimeout)
              + "): the job is killed before the warning");
    }
    if (job.cleanup != null && job.cleanup.isBlank()) {
      problems.add(
          at.at("cleanup"),
          "'" + path + ".cleanup' must not be empty (remove the key for no cleanup)");
    } else if (job.cleanup != null) {
      placeholders(path + ".cleanup", job.cleanup, at.at("cleanup"), problems);
    }
    texts(path + ".emails", job.emails, at, problems, true, "emails");
  }

  static void checkSchedule(Schedule.Builder s, Problems problems) {
    Located at = s.located;
    if (s.every != null && s.cron != null) {
      problems.add(at.at("cron"), "'schedule' takes either 'every' or 'cron', not both");
    } else if (s.every == null && s.cron == null && !at.isBroken("every") && !at.isBroken("cron")) {
      problems.add(
          at.at(Located.SELF),
          "'schedule' needs 'every' (e.g. every: 1h) or 'cron' (e.g. cron: \"0 3 * * *\")");
    }
    wholeMillis("schedule.every", s.every, at.at("every"), problems);
    if (s.every != null && !isPositive(s.every)) {
      problems.add(at.at("every"), "'schedule.every' must be more than 0s, got " + show(s.every));
    }
    if (s.cron != null) {
      CronSyntax.problem(s.cron)
          .ifPresent(p -> problems.add(at.at("cron"), "'schedule.cron' " + p));
    }
    if (s.timezone != null && s.cron == null && s.every != null) {
      problems.add(
          at.at("timezone"),
          "'schedule.timezone' applies to 'cron' only "
              + "(an 'every' schedule repeats a fixed duration from 'start')");
    }
    if (s.maxRunning != null && s.maxRunning < 1) {
      problems.add(
          at.at("maxRunning"), "'schedule.maxRunning' must be at least 1, got " + s.maxRunning);
    }
    if (s.catchUp != null && s.catchUp < 0) {
      problems.add(at.at("catchUp"), "'schedule.catchUp' must be at least 0, got " + s.catchUp);
    }
  }

  /**
   * Reports each {@code %(name:suffix)s} whose suffix is not {@code raw}: the worker would render
   * it as the empty attribute {@code name:suffix}, almost surely a typo. {@code %%} is a literal
   * {@code %}; names hold no {@code %} or {@code )} (the worker's CommandTemplate rules).
   */
  private static void placeholders(String path, String command, Where where, Problems problems) {
    Matcher placeholder = PLACEHOLDER.matcher(command);
    while (placeholder.find()) {
      String name = placeholder.group(1); // null for %%
      int colon = name == null ? -1 : name.lastIndexOf(':');
      String suffix = colon < 0 ? RAW_SUFFIX : name.substring(colon);
      if (!suffix.equals(RAW_SUFFIX)) {
        problems.add(
            where,
            "'"
                + path
                + "' has placeholder '%("
                + name
                + ")s' with unknown suffix '"
                + suffix
                + "': use %(name)s (quoted for the shell) or %(name:raw)s (inserted as it is)");
      }
    }
  }

  /** Checks a workflow or job name; true if it is valid. */
  private static boolean name(String what, String name, Where where, Problems problems) {
    if (!NAME.matcher(name).matches()) {
      problems.add(where, "invalid " + what + " name '" + name + "': " + NAME_RULE);
      return false;
    }
    if (name.startsWith("__")) {
      problems.add(
          where,
          what + " name '" + name + "' is reserved: names starting with __ are Flipper's own");
      return false;
    }
    return true;
  }

  private static void texts(
      String path, List<String> texts, Located at, Problems problems, boolean emails) {
    texts(path, texts, at, problems, emails, path);
  }

  /**
   * Checks a list of owners or e-mail addresses; {@code key} is the list's key in the located
   * builder.
   */
  private static void texts(
      String path, List<String> texts, Located at, Problems problems, boolean emails, String key) {
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      Where where = at.at(key + "[" + i + "]");
      String item = "'" + path + "[" + i + "]'";
      if (text == null || text.isBlank()) {
        problems.add(where, item + " must not be empty");
      } else if (emails && !EMAIL.matcher(text.strip()).matches()) {
        problems.add(
            where, item + " must be an e-mail address like data@example.com, got '" + text + "'");
      }
    }
  }

  private static void positive(String path, Duration value, Where where, Problems problems) {
    if (value != null && !isPositive(value)) {
      problems.add(where, "'" + path + "' must be more than 0s, got " + show(value));
    }
  }

  /** Durations are stored and written in milliseconds; a finer one would not read back equal. */
  private static void wholeMillis(String path, Duration value, Where where, Problems problems) {
    if (value != null && value.getNano() % 1_000_000 != 0) {
      problems.add(
          where,
          "'" + path + "' must be a whole number of milliseconds, got " + value.toNanos() + "ns");
    }
  }

  private static boolean isPositive(Duration d) {
    return !d.isZero() && !d.isNegative();
  }

  private static String show(Duration d) {
    return d.isNegative() ? "-" + DurationText.format(d.negated()) : DurationText.format(d);
  }
}
