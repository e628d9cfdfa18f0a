package dev.flipper.workflow.scheduler;

import dev.flipper.text.DurationText;
import dev.flipper.text.Readable;
import dev.flipper.token.Token;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.overrun.OverrunDecision;
import dev.flipper.workflow.scheduler.overrun.OverrunRules;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import dev.flipper.workflow.scheduler.time.CronRecurrence;
import dev.flipper.workflow.scheduler.time.EveryRecurrence;
import dev.flipper.workflow.scheduler.time.Recurrence;
import dev.flipper.workflow.scheduler.time.Slots;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what a claimed, due schedule token does at {@code now}: which slot is due (with
 * catch-up), what the overrun policy says, and the one modify that starts the instance and moves
 * the schedule on together. Reads the workflow's running instances through the {@link
 * InstanceStarter}; writes nothing. Thread-safe.
 */
final class ScheduleFiring {
  /**
   * How long an invalid schedule is left alone before it is looked at again (an apply rewrites it
   * sooner).
   */
  static final Duration INVALID_RECHECK = Duration.ofHours(1);

  private final String owner;
  private final InstanceStarter starter;
  private final ScheduleNotifier notifier;
  private final Duration recheck;

  ScheduleFiring(
      String owner, InstanceStarter starter, ScheduleNotifier notifier, Duration recheck) {
    this.owner = owner;
    this.starter = starter;
    this.notifier = notifier;
    this.recheck = recheck;
  }

  /** The plan for {@code claimed} at {@code now}. */
  FiringPlan plan(Token claimed, Instant now) {
    return plan(claimed, now, starter);
  }

  /**
   * The plan, reading the workflow's instances through {@code reads} (a starter's {@code forBatch}
   * view).
   */
  FiringPlan plan(Token claimed, Instant now, InstanceStarter reads) {
    ScheduleData data = ScheduleTokens.read(claimed);
    String workflow = ScheduleTokens.workflowOf(claimed.name());
    Recurrence recurrence;
    OverrunPolicy policy;
    try {
      recurrence = recurrence(data);
      policy = OverrunPolicy.valueOf(data.overrunPolicy);
    } catch (IllegalArgumentException | DateTimeException e) {
      return hold(
          claimed,
          data,
          now.plus(INVALID_RECHECK),
          "schedule of "
              + workflow
              + " is not valid ("
              + e.getMessage()
              + "); apply a fixed definition");
    }
    if (data.nextRunMillis == null) {
      // First placement in time: the first slot at or after the apply, so a slot right after an
      // apply that a
      // scheduler sees a little late still fires.
      long applied = data.appliedMillis != null ? data.appliedMillis : now.toEpochMilli();
      Optional<Instant> first = recurrence.nextAfter(Instant.ofEpochMilli(applied - 1));
      if (first.isEmpty()) {
        Token parked =
            write(claimed, data, Long.MAX_VALUE, 0); // owned forever: never claimed again
        return FiringPlan.write(
            parked,
            "schedule of "
                + workflow
                + " never fires ("
                + recurrence
                + "); apply a fixed definition");
      }
      data.nextRunMillis = first.get().toEpochMilli();
    }
    Instant nextRun = Instant.ofEpochMilli(data.nextRunMillis);
    Optional<Instant> due = Slots.due(recurrence, nextRun, now, data.catchUp);
    if (due.isEmpty()) {
      return hold(claimed, data, nextRun, workflow + " next runs at " + nextRun);
    }
    Instant slot = due.get();
    WorkflowRuns runs = reads.runs(workflow);
    OverrunDecision decision = OverrunRules.decide(policy, data.maxRunningInstances, runs);
    if (decision instanceof OverrunDecision.Start start) {
      List<Token> notStored = hold(claimed, copy(data), now.plus(recheck), "").writes();
      List<Token> writes = new ArrayList<>();
      writes.add(advance(claimed, data, recurrence, slot));
      for (String running : start.abort()) {
        writes.addAll(reads.abortTokens(workflow, running));
      }
      String aborted = start.abort().isEmpty() ? "" : ", aborting " + start.abort();
      return new FiringPlan(
          writes,
          Optional.of(
              new FiringPlan.Start(
                  workflow, Map.of(InstanceStarter.SCHEDULED_TIME, slot.toString()))),
          notStored,
          () -> {},
          "started "
              + workflow
              + " for slot "
              + slot
              + aborted
              + "; next run "
              + describeNext(data));
    }
    if (decision instanceof OverrunDecision.Skip skip) {
      Token advanced = advance(claimed, data, recurrence, slot);
      return FiringPlan.write(
          advanced,
          "skipped slot "
              + slot
              + " of "
              + workflow
              + " ("
              + policy
              + ": "
              + skip.reason()
              + "); next run "
              + describeNext(data));
    }
    if (decision instanceof OverrunDecision.Wait wait) {
      return hold(
          claimed,
          data,
          now.plus(recheck),
          "slot "
              + slot
              + " of "
              + workflow
              + " waits ("
              + policy
              + ": "
              + wait.reason()
              + "); looking again in "
              + DurationText.format(recheck));
    }
    OverrunDecision.TooMany tooMany = (OverrunDecision.TooMany) decision;
    boolean mail =
        data.tooManyMailedForMillis == null || data.tooManyMailedForMillis != slot.toEpochMilli();
    data.tooManyMailedForMillis = slot.toEpochMilli();
    FiringPlan held =
        hold(
            claimed,
            data,
            now.plus(recheck),
            "slot "
                + Readable.time(slot)
                + " of "
                + workflow
                + " not started: "
                + tooMany.running()
                + " instances run, maxRunning "
                + tooMany.maxRunning()
                + "; looking again in "
                + DurationText.format(recheck));
    List<String> to = List.copyOf(data.emails);
    Runnable notify =
        mail
            ? () ->
                notifier.tooManyInstances(
                    workflow, tooMany.running(), tooMany.maxRunning(), slot, to)
            : () -> {};
    return new FiringPlan(held.writes(), Optional.empty(), List.of(), notify, held.summary());
  }

  /** The schedule moved past {@code slot}, leased until its next run. */
  private Token advance(Token claimed, ScheduleData data, Recurrence recurrence, Instant slot) {
    Optional<Instant> next = recurrence.nextAfter(slot);
    data.tooManyMailedForMillis = null;
    if (next.isEmpty()) {
      data.nextRunMillis = null;
      return write(claimed, data, Long.MAX_VALUE, 0);
    }
    data.nextRunMillis = next.get().toEpochMilli();
    return write(
        claimed,
        data,
        ScheduleTokens.leaseEnd(data.nextRunMillis),
        ScheduleTokens.priority(data.nextRunMillis));
  }

  /** No start and no advance: the schedule is claimable again at {@code until}. */
  private FiringPlan hold(Token claimed, ScheduleData data, Instant until, String summary) {
    Token held =
        write(
            claimed,
            data,
            ScheduleTokens.leaseEnd(until.toEpochMilli()),
            ScheduleTokens.priority(data.nextRunMillis));
    return FiringPlan.write(held, summary);
  }

  private Token write(Token claimed, ScheduleData data, long expiration, double priority) {
    return new Token(
        claimed.version(), claimed.name(), owner, expiration, priority, ScheduleTokens.write(data));
  }

  private static ScheduleData copy(ScheduleData data) {
    return ScheduleTokens.read(new Token(0, "copy", null, 0, 0, ScheduleTokens.write(data)));
  }

  private static String describeNext(ScheduleData data) {
    return data.nextRunMillis == null
        ? "never"
        : Instant.ofEpochMilli(data.nextRunMillis).toString();
  }

  /** The slots of stored schedule data. */
  static Recurrence recurrence(ScheduleData data) {
    if (data.recurrenceMillis != null) {
      Instant start =
          Instant.ofEpochMilli(
              data.startMillis != null
                  ? data.startMillis
                  : data.appliedMillis != null ? data.appliedMillis : 0);
      return new EveryRecurrence(start, Duration.ofMillis(data.recurrenceMillis));
    }
    if (data.cron != null) {
      return CronRecurrence.parse(
          data.cron, ZoneId.of(data.timezone != null ? data.timezone : "UTC"));
    }
    throw new IllegalArgumentException("it has neither recurrenceMillis nor cron");
  }
}
