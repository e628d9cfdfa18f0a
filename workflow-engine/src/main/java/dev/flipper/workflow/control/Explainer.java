package dev.flipper.workflow.control;

import dev.flipper.text.Readable;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.SignalData;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Says in plain words why a job, an instance or a workflow is not running now ({@code flipper
 * workflow explain}, docs/operations.md): a pure function of an {@link ExplainSnapshot}, checked in
 * the order that decides: the instance's end, ABORT, the job's own state (running, in retry delay,
 * held), DRAIN and pause at any level, then whether any worker could take it (heartbeats, EXIT
 * generation, free slots). Stateless.
 */
public final class Explainer {
  /** Which reason describes an instance whose jobs have several: the first that applies. */
  private static final List<Reason> INSTANCE_ORDER =
      List.of(
          Reason.RUNNING,
          Reason.PAUSED,
          Reason.DRAINED,
          Reason.GENERATION_MISMATCH,
          Reason.WORKER_DEAD,
          Reason.NO_WORKER_ALIVE,
          Reason.ALL_WORKERS_BUSY,
          Reason.RUNNABLE,
          Reason.RETRY_DELAY,
          Reason.WAITING_FOR_PARENTS,
          Reason.FAILED,
          Reason.FINISHED);

  private Explainer() {}

  /**
   * Explains the snapshot's instance, or one job of it, or (no instance in the snapshot) the
   * workflow.
   */
  public static Explanation explain(ExplainSnapshot snapshot, Optional<String> job) {
    if (snapshot.instance().isEmpty()) {
      return new WorkflowView(snapshot).explain();
    }
    return new InstanceView(snapshot).explain(job);
  }

  /**
   * The signals of one action, as "the global level", "the workflow level", "the instance level".
   */
  private static List<String> levels(ExplainSnapshot s, SignalAction action) {
    List<String> levels = new ArrayList<>();
    for (Token signal : s.signals()) {
      if (!TokenLayout.last(signal.name()).equals(action.name())) {
        continue;
      }
      String level =
          signal.name().startsWith(TokenLayout.globalSignalPrefix())
              ? "global"
              : signal.name().startsWith(TokenLayout.workflowSignalPrefix(s.workflow()))
                  ? "workflow"
                  : "instance";
      Long since =
          signal.data() == null ? null : Json.read(signal, SignalData.class).timestampMillis;
      levels.add(
          "the "
              + level
              + " level"
              + (since == null
                  ? ""
                  : " (since " + Readable.time(Instant.ofEpochMilli(since)) + ")"));
    }
    return levels;
  }

  /**
   * Why no worker takes a claimable job, if none would: no heartbeat alive, all alive ones retiring
   * under an EXIT for a newer generation, or all busy. Empty if some worker has a free slot.
   */
  private static Optional<Explanation> fleet(ExplainSnapshot s, String subject) {
    List<Heartbeat> alive = s.workers().stream().filter(w -> w.aliveAt(s.now())).toList();
    if (alive.isEmpty()) {
      Optional<Heartbeat> last = s.workers().stream().max(Comparator.comparing(Heartbeat::beat));
      return Optional.of(
          Explanation.of(
              subject,
              Reason.NO_WORKER_ALIVE,
              last.map(
                      w ->
                          "no worker is alive: the last heartbeat came from "
                              + w.name()
                              + " (generation "
                              + w.generation()
                              + ") "
                              + Readable.duration(w.age(s.now()))
                              + " ago. Start workers (flipper -m workers).")
                  .orElse(
                      "no worker is alive: no worker has published a heartbeat. Start workers (flipper -m workers).")));
    }
    Optional<Integer> exit = ExitSignal.generationAmong(s.signals());
    List<Heartbeat> takers = alive.stream().filter(w -> w.takesWork(exit)).toList();
    if (takers.isEmpty()) {
      String generations =
          alive.stream()
              .map(w -> Integer.toString(w.generation()))
              .distinct()
              .sorted()
              .collect(Collectors.joining(", "));
      return Optional.of(
          Explanation.of(
              subject,
              Reason.GENERATION_MISMATCH,
              exit.map(
                      g ->
                          "generation mismatch: an EXIT signal retires workers older than generation "
                              + g
                              + ", and every "
                              + "alive worker is older (generation "
                              + generations
                              + "). Start workers with workers.generation >= "
                              + g
                              + ", or run flipper workflow unexit.")
                  .orElse(
                      "every alive worker is retiring (stopping after its current jobs); start new workers.")));
    }
    if (takers.stream().allMatch(Heartbeat::busy)) {
      int slots = takers.stream().mapToInt(Heartbeat::slots).sum();
      return Optional.of(
          Explanation.of(
              subject,
              Reason.ALL_WORKERS_BUSY,
              "all "
                  + takers.size()
                  + " workers that "
                  + "take work are busy ("
                  + slots
                  + " of "
                  + slots
                  + " slots run jobs); it starts when a slot is free, "
                  + "highest priority first."));
    }
    return Optional.empty();
  }

  /** One instance: its jobs by name and their state. */
  private static final class InstanceView {
    private final ExplainSnapshot s;
    private final String subject;
    private final Map<String, JobData> jobs = new LinkedHashMap<>();
    private final Map<String, Token> runnable = new LinkedHashMap<>();
    private final Set<String> ownedByPause = new HashSet<>();

    /** {@code job/input} of every event waiting. */
    private final Set<String> eventsIn = new HashSet<>();

    InstanceView(ExplainSnapshot s) {
      this.s = s;
      this.subject = s.workflow() + "/" + s.instance().orElseThrow();
      String inputs =
          TokenLayout.instancePrefix(s.workflow(), s.instance().orElseThrow()) + "input/";
      for (Token token : s.jobs()) {
        JobData data = Json.read(token, JobData.class);
        jobs.put(data.name, data);
        if (token.name().startsWith(TokenLayout.RUNNABLE)) {
          runnable.put(data.name, token);
        }
        if (Owners.PAUSED.equals(token.owner())) {
          ownedByPause.add(data.name);
        }
      }
      for (Token event : s.events()) {
        String[] parts = event.name().substring(inputs.length()).split("/");
        eventsIn.add(parts[0] + "/" + parts[1]);
      }
    }

    Explanation explain(Optional<String> job) {
      if (s.instanceRecord().isEmpty()) {
        return Explanation.of(
            subject + job.map(j -> "/" + j).orElse(""),
            Reason.NOT_FOUND,
            "no active instance "
                + subject
                + ": it never existed, or it ended and was archived (archived instances are not shown).");
      }
      InstanceData record = Json.read(s.instanceRecord().get(), InstanceData.class);
      if (job.isPresent()) {
        if (!jobs.containsKey(job.get())) {
          return Explanation.of(
              subject + "/" + job.get(),
              Reason.NOT_FOUND,
              "no job '"
                  + job.get()
                  + "' in "
                  + subject
                  + "; its jobs are "
                  + jobs.keySet().stream().sorted().toList()
                  + ".");
        }
        return explainJob(record, job.get());
      }
      if (!"RUNNING".equals(record.status)) {
        return Explanation.of(subject, Reason.FINISHED, ended(record));
      }
      Optional<Explanation> aborted = aborted(subject);
      if (aborted.isPresent()) {
        return aborted.get();
      }
      List<Explanation> open = new ArrayList<>();
      for (String name : jobs.keySet().stream().sorted().toList()) {
        Explanation e = explainJob(record, name);
        if (e.reason() != Reason.FINISHED) {
          open.add(e);
        }
      }
      Reason reason =
          INSTANCE_ORDER.stream()
              .filter(r -> open.stream().anyMatch(e -> e.reason() == r))
              .findFirst()
              .orElse(Reason.FINISHED);
      String text =
          switch (reason) {
            case RUNNING ->
                "running: "
                    + open.stream()
                        .filter(e -> e.reason() == Reason.RUNNING)
                        .map(e -> TokenLayout.last(e.subject()))
                        .collect(Collectors.joining(", "))
                    + ".";
            case FINISHED -> "every job has run; the instance ends at the next check.";
            default ->
                open.stream().filter(e -> e.reason() == reason).findFirst().orElseThrow().text();
          };
      return new Explanation(subject, reason, text, open);
    }

    private Optional<Explanation> aborted(String what) {
      List<String> levels = levels(s, SignalAction.ABORT);
      if (levels.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          Explanation.of(
              what,
              Reason.ABORTED,
              "aborted at "
                  + String.join(" and ", levels)
                  + ": nothing starts, running jobs are killed, and the instance is archived once nothing runs."));
    }

    private Explanation explainJob(InstanceData record, String name) {
      String what = subject + "/" + name;
      JobData job = jobs.get(name);
      if (!"RUNNING".equals(record.status)) {
        return Explanation.of(
            what, Reason.FINISHED, "the instance has ended: " + ended(record) + " " + lastRun(job));
      }
      Optional<Explanation> aborted = aborted(what);
      if (aborted.isPresent()) {
        return aborted.get();
      }
      Token token = runnable.get(name);
      return token != null ? runnable(what, job, token) : waiting(what, job);
    }

    private Explanation runnable(String what, JobData job, Token token) {
      String owner = token.owner();
      boolean owned = token.isOwnedAt(s.now());
      if (owned && Owners.RETRY_DELAY.equals(owner)) {
        ExecutionData last = job.lastExecution();
        return Explanation.of(
            what,
            Reason.RETRY_DELAY,
            "attempt "
                + job.attempt
                + " of "
                + job.maxAttempts
                + " failed"
                + (last == null ? "" : " (" + outcome(last) + ")")
                + "; in retry delay until "
                + Readable.time(Instant.ofEpochSecond(token.expirationTime()))
                + ".");
      }
      if (owned && !Owners.isHold(owner)) {
        return ownedByWorker(what, job, token);
      }
      List<String> paused = levels(s, SignalAction.PAUSE);
      if (!paused.isEmpty()
          || Owners.PAUSED.equals(owner)
          || !ownedByPause.isEmpty()
          || isPaused()) {
        return Explanation.of(
            what,
            Reason.PAUSED,
            "paused at "
                + (paused.isEmpty() ? "the instance level" : String.join(" and ", paused))
                + ": nothing new starts until flipper workflow resume -w "
                + s.workflow()
                + " -i "
                + s.instance().orElseThrow()
                + "; running jobs finish and keep their results.");
      }
      List<String> drained = levels(s, SignalAction.DRAIN);
      if (Owners.DRAINED.equals(owner) || !drained.isEmpty()) {
        return Explanation.of(
            what,
            Reason.DRAINED,
            drained.isEmpty()
                ? "held as drained (it was claimed while a DRAIN signal was set, which is gone now); undrain releases it."
                : "drained at "
                    + String.join(" and ", drained)
                    + ": nothing new starts until undrain.");
      }
      if (Owners.ABORTED.equals(owner)) {
        return Explanation.of(
            what,
            Reason.ABORTED,
            "held as aborted (it was claimed while an ABORT signal was set, "
                + "which is gone now); unabort releases it.");
      }
      Optional<Explanation> fleet = fleet(s, what);
      if (fleet.isPresent()) {
        return fleet.get();
      }
      return Explanation.of(
          what,
          Reason.RUNNABLE,
          "runnable (priority "
              + job.priority
              + "): a worker with a free "
              + "slot claims it within seconds"
              + (job.hasOpenExecution()
                  ? "; its last worker lost the lease, and the next claim closes that attempt as \"lease lost\"."
                  : "."));
    }

    /** Pause puts its owner on the instance's tokens; the record says it for the whole instance. */
    private boolean isPaused() {
      return s.instanceRecord().map(t -> Owners.PAUSED.equals(t.owner())).orElse(false);
    }

    /**
     * A job whose lease a worker holds: running or starting on it, unless that worker's heartbeat
     * is too old (a killed worker, or one whose waiting claim the master answered after it died):
     * then nothing runs it until the lease ends.
     */
    private Explanation ownedByWorker(String what, JobData job, Token token) {
      String key = subject + "/" + job.name;
      Optional<Heartbeat> worker =
          s.workers().stream()
              .filter(w -> w.running().contains(key) || w.ownsSlot(token.owner()))
              .findFirst();
      String lease = Readable.time(Instant.ofEpochSecond(token.expirationTime()));
      if (worker.isPresent() && !worker.get().aliveAt(s.now())) {
        return Explanation.of(
            what,
            Reason.WORKER_DEAD,
            "claimed by "
                + token.owner()
                + ", but its worker's last "
                + "heartbeat was "
                + Readable.duration(worker.get().age(s.now()))
                + " ago (dead): another worker claims it when the "
                + "lease ends at "
                + lease
                + ".");
      }
      String where =
          worker
              .map(w -> "worker " + w.name() + " on " + w.host())
              .orElse("worker " + token.owner());
      if (!job.hasOpenExecution()) {
        return Explanation.of(
            what,
            Reason.RUNNING,
            "claimed by " + where + ", starting (lease until " + lease + ").");
      }
      ExecutionData last = job.lastExecution();
      return Explanation.of(
          what,
          Reason.RUNNING,
          "running on "
              + where
              + " since "
              + Readable.time(Instant.ofEpochMilli(last.startMillis))
              + " (attempt "
              + job.attempt
              + " of "
              + job.maxAttempts
              + ", lease until "
              + lease
              + ").");
    }

    private Explanation waiting(String what, JobData job) {
      ExecutionData last = job.lastExecution();
      if (last != null && !last.isOpen()) {
        if (last.succeeded()) {
          return Explanation.of(what, Reason.FINISHED, lastRun(job));
        }
        return Explanation.of(
            what,
            Reason.FAILED,
            "failed for good: "
                + lastRun(job)
                + " No attempt is left; "
                + "flipper workflow retry or redo runs it again.");
      }
      List<String> missing =
          job.inputs.stream().filter(input -> !eventsIn.contains(job.name + "/" + input)).toList();
      if (missing.isEmpty()) {
        return Explanation.of(
            what,
            Reason.RUNNABLE,
            "every input has its event; it becomes runnable at the next "
                + "success in the instance.");
      }
      String parents =
          missing.stream()
              .map(p -> p + " (" + parentState(p) + ")")
              .collect(Collectors.joining(", "));
      return Explanation.of(
          what,
          Reason.WAITING_FOR_PARENTS,
          "waiting for "
              + (missing.size() == 1 ? "parent " : "parents ")
              + parents
              + (job.disabled ? "; it is disabled, so then it succeeds without running." : "."));
    }

    private String parentState(String parent) {
      JobData data = jobs.get(parent);
      if (data == null) {
        return "not in this instance";
      }
      Token token = runnable.get(parent);
      if (token != null) {
        return token.isOwnedAt(s.now()) && !Owners.isHold(token.owner())
            ? "running"
            : Owners.RETRY_DELAY.equals(token.owner()) ? "in retry delay" : "runnable, not started";
      }
      ExecutionData last = data.lastExecution();
      if (last == null) {
        return "waiting";
      }
      return last.succeeded()
          ? "succeeded, its event was used by an earlier run"
          : "failed for good";
    }
  }

  private static String ended(InstanceData record) {
    String end =
        record.endMillis == null
            ? ""
            : " at " + Readable.time(Instant.ofEpochMilli(record.endMillis));
    return "the instance ended "
        + record.status
        + end
        + (record.failedJobs.isEmpty()
            ? "."
            : " (failed: " + String.join(", ", record.failedJobs) + ").");
  }

  private static String lastRun(JobData job) {
    ExecutionData last = job.lastExecution();
    if (last == null) {
      return "The job never ran.";
    }
    return "Its last attempt ("
        + last.attempt
        + " of "
        + job.maxAttempts
        + ") "
        + outcome(last)
        + ".";
  }

  private static String outcome(ExecutionData record) {
    if (record.isOpen()) {
      return "is still open";
    }
    String at = " at " + Readable.time(Instant.ofEpochMilli(record.endMillis));
    if (record.succeeded()) {
      return "succeeded" + at;
    }
    return (record.exitCode == null ? "ended" : "exited " + record.exitCode)
        + at
        + (record.endReason == null ? "" : ", " + record.endReason);
  }

  /** A workflow: why no new instance starts now. */
  private static final class WorkflowView {
    private final ExplainSnapshot s;

    WorkflowView(ExplainSnapshot s) {
      this.s = s;
    }

    Explanation explain() {
      String subject = s.workflow();
      long running =
          s.instances().stream().filter(i -> i.status().name().equals("RUNNING")).count();
      List<String> aborted = levels(s, SignalAction.ABORT);
      if (!aborted.isEmpty()) {
        return Explanation.of(
            subject,
            Reason.ABORTED,
            "aborted at "
                + String.join(" and ", aborted)
                + ": its instances are stopped as they start.");
      }
      List<String> drained = levels(s, SignalAction.DRAIN);
      if (!drained.isEmpty()) {
        return Explanation.of(
            subject,
            Reason.DRAINED,
            "drained at "
                + String.join(" and ", drained)
                + ": instances may start, but none of their jobs runs until undrain.");
      }
      if (s.schedule().isEmpty()) {
        return Explanation.of(
            subject,
            Reason.NOT_SCHEDULED,
            "no schedule: instances start only by flipper workflow "
                + "start -w "
                + subject
                + " ("
                + running
                + " running now).");
      }
      ScheduleData schedule = ScheduleTokens.read(s.schedule().get());
      String next =
          schedule.nextRunMillis == null
              ? "the first slot, computed by the next scheduler"
              : Readable.time(Instant.ofEpochMilli(schedule.nextRunMillis));
      if (running >= schedule.maxRunningInstances) {
        return Explanation.of(
            subject,
            Reason.MAX_RUNNING_INSTANCES,
            "max running instances reached: "
                + running
                + " of at most "
                + schedule.maxRunningInstances
                + " run; the start due at "
                + next
                + " waits (overrun "
                + "policy "
                + schedule.overrunPolicy
                + ") until one ends.");
      }
      return Explanation.of(
          subject,
          Reason.SCHEDULED,
          "the next instance starts at "
              + next
              + " ("
              + running
              + " of at most "
              + schedule.maxRunningInstances
              + " running, overrun policy "
              + schedule.overrunPolicy
              + ").");
    }
  }
}
