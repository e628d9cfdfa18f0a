package dev.flipper.workflow.ui;

import dev.flipper.workflow.ui.view.ActionBar;
import dev.flipper.workflow.ui.view.ActionButton;
import dev.flipper.workflow.ui.view.JobAction;
import dev.flipper.workflow.ui.view.JobRow;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which actions of the instance page apply now, and why the others do not: from the instance's
 * shown status and its jobs' statuses, by the refusal rules of the control operations (a job action
 * that would be refused, or change nothing, is unavailable). Pure.
 */
final class ActionAvailability {
  private static final Set<String> ENDED = Set.of("SUCCESS", "FAILURE", "ABORTED");
  private static final Set<String> BUSY = Set.of("RUNNABLE", "RUNNING");

  private ActionAvailability() {}

  /**
   * @param status the instance's shown status: RUNNING, PAUSED, DRAINED, SUCCESS, FAILURE, ABORTED
   * @param holdLevels where the PAUSE or DRAIN that holds it is set ({@code global}, {@code
   *     workflow}, {@code instance}); empty when nothing holds it
   */
  static ActionBar of(String status, List<String> holdLevels, List<JobRow> jobs) {
    Map<String, JobRow> byName = new LinkedHashMap<>();
    jobs.forEach(j -> byName.put(j.name(), j));
    Map<String, List<String>> children = new HashMap<>();
    jobs.forEach(
        j ->
            j.needs()
                .forEach(p -> children.computeIfAbsent(p, k -> new ArrayList<>()).add(j.name())));
    List<JobAction> jobActions =
        List.of(
            job("poison", "Rerun with downstream", false, jobs, j -> rerun(j, byName, children)),
            job("redo", "Redo", true, jobs, ActionAvailability::redo),
            job(
                "disable",
                "Disable",
                false,
                jobs,
                j ->
                    j.status().equals("RUNNING")
                        ? j.name() + " is running"
                        : j.disabled() ? j.name() + " is already disabled" : null),
            job(
                "enable",
                "Enable",
                false,
                jobs,
                j -> j.disabled() ? null : j.name() + " is not disabled"));
    boolean ended = ENDED.contains(status);
    String finished = "instance already finished (" + status + ")";
    boolean failed =
        status.equals("ABORTED") || jobs.stream().anyMatch(j -> j.status().equals("FAILURE"));
    List<ActionButton> instance =
        List.of(
            button("retry", "Retry failed", failed ? null : "no failed job"),
            button(
                "pause",
                "Pause",
                ended ? finished : status.equals("PAUSED") ? "instance already paused" : null),
            button("resume", "Resume", status.equals("PAUSED") ? null : "instance is not paused"),
            button(
                "drain",
                "Drain",
                ended ? finished : status.equals("DRAINED") ? "instance already drained" : null),
            button("undrain", "Undrain", undrain(status, holdLevels)),
            button("abort", "Abort", ended ? finished : null),
            button(
                "unabort", "Unabort", status.equals("ABORTED") ? null : "instance is not aborted"),
            button("archive", "Archive when done", null),
            button("stop", "Stop and delete", null));
    return new ActionBar(jobActions, instance);
  }

  /**
   * Undrain here removes the instance's own DRAIN only: one set for its workflow or globally keeps
   * holding it (as explain says), so the reason points there.
   */
  private static String undrain(String status, List<String> holdLevels) {
    if (!status.equals("DRAINED")) {
      return "instance is not drained";
    }
    return holdLevels.contains("instance")
        ? null
        : "drained at the " + String.join(" and ", holdLevels) + " level: undrain it there";
  }

  /** poison: refused while a job of the set (the job and everything below it) is runnable. */
  private static String rerun(
      JobRow job, Map<String, JobRow> byName, Map<String, List<String>> children) {
    Set<String> set = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(job.name()));
    while (!todo.isEmpty()) {
      String next = todo.poll();
      if (set.add(next)) {
        todo.addAll(children.getOrDefault(next, List.of()));
      }
    }
    for (String name : set) {
      JobRow row = byName.get(name);
      if (row != null && BUSY.contains(row.status())) {
        String which =
            name.equals(job.name()) ? name : name + " (downstream of " + job.name() + ")";
        return which + " is " + row.status().toLowerCase(Locale.ROOT);
      }
    }
    return null;
  }

  private static String redo(JobRow job) {
    if (BUSY.contains(job.status())) {
      return job.name() + " is " + job.status().toLowerCase(Locale.ROOT);
    }
    return job.executions() == 0 ? job.name() + " has not run yet" : null;
  }

  private static JobAction job(
      String op, String label, boolean oneJob, List<JobRow> jobs, Function<JobRow, String> why) {
    Map<String, String> refusals = new LinkedHashMap<>();
    for (JobRow job : jobs) {
      String reason = why.apply(job);
      if (reason != null) {
        refusals.put(job.name(), reason);
      }
    }
    return new JobAction(op, label, oneJob, refusals);
  }

  private static ActionButton button(String op, String label, String reason) {
    return new ActionButton(op, label, reason == null ? null : label + ": " + reason);
  }
}
