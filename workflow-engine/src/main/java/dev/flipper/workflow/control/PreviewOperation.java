package dev.flipper.workflow.control;

import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.JobData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The preview of an instance's operation ({@link WorkflowControl#preview}): what it would change,
 * read from the instance's tokens with the rules of {@link RerunPlan} and the operations' own
 * checks; writes nothing. Thread-safe.
 */
final class PreviewOperation {
  /** The operations a preview is offered for: those of one instance. */
  static final Set<String> OPERATIONS =
      Set.of(
          "retry", "poison", "redo", "disable", "enable", "pause", "resume", "stop", "abort",
          "unabort", "drain", "undrain", "archive");

  private final WorkflowEngine engine;

  PreviewOperation(WorkflowEngine engine) {
    this.engine = engine;
  }

  ActionPreview preview(String operation, String workflow, String instance, List<String> jobs) {
    if (!OPERATIONS.contains(operation)) {
      throw new IllegalArgumentException(
          "no preview of '" + operation + "'; previews: " + OPERATIONS.stream().sorted().toList());
    }
    ControlScope scope = ControlScope.instance(workflow, instance);
    Optional<InstanceTokens> read = InstanceTokens.read(engine.master(), workflow, instance);
    Optional<InstanceDetail> detail = engine.status().instance(workflow, instance);
    Plan plan = new Plan();
    if (read.isEmpty() || detail.isEmpty()) {
      if (!operation.equals("retry") && !operation.equals("poison")) {
        InstanceTokens.require(engine.master(), workflow, instance); // its clear error
      }
      plan.change("instance", "archived", "copied into a new instance", archivedCopy(operation));
      return plan.preview(operation, scope);
    }
    InstanceTokens tokens = read.get();
    Map<String, JobStatus> statuses = new LinkedHashMap<>();
    detail.get().jobs().forEach(j -> statuses.put(j.name(), j.status()));
    InstanceSummary summary = detail.get().summary();
    String shown = summary.shownStatus().name();
    jobs.forEach(tokens::job); // a clear error for a job the instance does not have
    switch (operation) {
      case "retry" -> retry(tokens, statuses, plan);
      case "poison" -> poison(tokens, statuses, jobs, plan);
      case "redo" -> redo(tokens, statuses, jobs, plan);
      case "disable", "enable" ->
          disable(tokens, statuses, jobs, operation.equals("disable"), plan);
      case "pause" -> {
        if (tokens.isRunning()) {
          plan.change("instance", shown, "PAUSED", "nothing new starts; running jobs finish");
        } else {
          plan.note("the instance has ended (" + tokens.status() + "): pause is refused");
        }
      }
      case "resume" -> plan.change("instance", shown, "RUNNING", "jobs held by the pause start");
      case "drain" ->
          plan.change("instance", shown, "DRAINED", "nothing new starts; running jobs finish");
      case "undrain" -> plan.change("instance", shown, "RUNNING", "jobs held by the drain start");
      case "archive" ->
          plan.change("instance", shown, shown, "archived as soon as it ends, without the delay");
      case "unabort" -> plan.change("instance", shown, shown, "ABORT signal removed");
      case "stop" -> {
        plan.change("instance", shown, "deleted", "not archived; no history kept");
        running(statuses, plan, "killed when its worker next renews");
      }
      case "abort" -> {
        if (tokens.isRunning()) {
          plan.change("instance", shown, "ABORTED", "archived at once");
          running(statuses, plan, "killed");
        } else {
          plan.note("the instance has ended (" + tokens.status() + "): abort changes nothing");
        }
      }
      default -> throw new IllegalStateException("no preview rule for " + operation);
    }
    return plan.preview(operation, scope);
  }

  private static String archivedCopy(String operation) {
    return operation.equals("retry")
        ? "its failed jobs run again there"
        : "the jobs given and everything downstream run there";
  }

  private static void retry(InstanceTokens tokens, Map<String, JobStatus> statuses, Plan plan) {
    List<String> rerun = new ArrayList<>();
    if (tokens.status() == InstanceStatus.ABORTED) {
      for (String job : RerunPlan.heldAborted(tokens)) {
        rerun.add(job);
        plan.change(job, status(statuses, job), "RUNNABLE", "released: the abort held it");
      }
    }
    for (String job : RerunPlan.failedWaiting(tokens)) {
      rerun.add(job);
      plan.change(job, status(statuses, job), "RUNNABLE", "reruns with its last events");
    }
    if (rerun.isEmpty()) {
      plan.note("no failed job in instance " + tokens.workflow + "/" + tokens.instance);
      return;
    }
    Map<String, JobData> jobs = tokens.jobs();
    List<String> below = List.copyOf(RerunPlan.downstream(jobs, rerun));
    for (String job : below) {
      if (!rerun.contains(job) && statuses.get(job) == JobStatus.UPSTREAM_FAILED) {
        plan.change(
            job, "UPSTREAM_FAILED", "WAITING", "downstream of " + parentsIn(jobs, job, below));
      }
    }
    revive(tokens, plan);
  }

  private static void poison(
      InstanceTokens tokens, Map<String, JobStatus> statuses, List<String> roots, Plan plan) {
    Map<String, JobData> jobs = tokens.jobs();
    Set<String> set = RerunPlan.downstream(jobs, roots);
    List<String> busy = RerunPlan.notWaiting(tokens, set);
    if (!busy.isEmpty()) {
      plan.note("poison is refused: job " + busy.get(0) + " is runnable or running");
    }
    for (String job : set) {
      boolean atOnce = RerunPlan.runsAtOnce(jobs.get(job), set);
      plan.change(
          job,
          status(statuses, job),
          atOnce ? "RUNNABLE" : "WAITING",
          roots.contains(job)
              ? "selected: runs again"
              : "downstream of " + parentsIn(jobs, job, List.copyOf(set)));
    }
    revive(tokens, plan);
  }

  private static void redo(
      InstanceTokens tokens, Map<String, JobStatus> statuses, List<String> jobs, Plan plan) {
    for (String job : jobs) {
      if (tokens.runnable.containsKey(job)) {
        plan.note("job " + job + " is already runnable or running");
      } else {
        plan.change(job, status(statuses, job), "RUNNABLE", "reruns with that execution's events");
      }
    }
    if (!plan.changes.isEmpty()) {
      revive(tokens, plan);
    }
  }

  private static void disable(
      InstanceTokens tokens,
      Map<String, JobStatus> statuses,
      List<String> jobs,
      boolean disabled,
      Plan plan) {
    Map<String, JobData> data = tokens.jobs();
    for (String job : jobs) {
      if (statuses.get(job) == JobStatus.RUNNING) {
        plan.note(
            "job " + job + " is running: " + (disabled ? "disable" : "enable") + " is refused");
      } else if (data.get(job).disabled == disabled) {
        plan.note("job " + job + " is already " + (disabled ? "disabled" : "enabled"));
      } else {
        plan.change(
            job,
            status(statuses, job),
            disabled ? "disabled" : "enabled",
            disabled ? "succeeds without running once its inputs are complete" : "runs again");
      }
    }
  }

  private static void running(Map<String, JobStatus> statuses, Plan plan, String why) {
    statuses.forEach(
        (job, status) -> {
          if (status == JobStatus.RUNNING) {
            plan.change(job, "RUNNING", "killed", why);
          }
        });
  }

  /** An ended instance runs again when a job reruns ({@link InstanceTokens#revive}). */
  private static void revive(InstanceTokens tokens, Plan plan) {
    if (!tokens.isRunning()) {
      plan.change("instance", tokens.status().name(), "RUNNING", "a job runs again");
    }
  }

  /** The job's parents among {@code jobs}, for "downstream of a, b". */
  private static String parentsIn(Map<String, JobData> all, String job, List<String> jobs) {
    return String.join(", ", all.get(job).inputs.stream().filter(jobs::contains).toList());
  }

  private static String status(Map<String, JobStatus> statuses, String job) {
    JobStatus status = statuses.get(job);
    return status == null ? "?" : status.name();
  }

  /** The changes and notes being collected. */
  private static final class Plan {
    final List<PlannedChange> changes = new ArrayList<>();
    final List<String> notes = new ArrayList<>();

    void change(String subject, String from, String to, String why) {
      changes.add(new PlannedChange(subject, from, to, why));
    }

    void note(String note) {
      notes.add(note);
    }

    ActionPreview preview(String operation, ControlScope scope) {
      return new ActionPreview(operation, scope.toString(), changes, notes);
    }
  }
}
