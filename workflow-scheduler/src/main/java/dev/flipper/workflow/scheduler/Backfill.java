package dev.flipper.workflow.scheduler;

import dev.flipper.text.Readable;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.time.Slots;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code flipper workflow backfill -w WF --from T --to T}: starts one instance per slot of the
 * workflow's schedule in a past range, each with its slot as {@link
 * InstanceStarter#SCHEDULED_TIME}, oldest first. It respects the schedule's {@code maxRunning}: it
 * starts as many slots as may run now (in one atomic modify with a starter that builds tokens, else
 * one start per slot), then waits ({@link BackfillProgress#waitForRoom}) until earlier instances
 * end and starts the next ones. The count is read before each start, as the scheduler reads it. The
 * schedule itself is not touched and overrun policies do not apply: a backfill is an explicit
 * request. Pinball had no backfill. Stateless.
 */
public final class Backfill {
  /** The most slots one backfill starts; a longer range is refused (split it). */
  public static final int MAX_SLOTS = 1000;

  private static final int MAX_ID_TRIES = 5;

  private Backfill() {}

  private static Map<String, String> params(Instant slot) {
    return Map.of(InstanceStarter.SCHEDULED_TIME, slot.toString());
  }

  private static IllegalArgumentException notStored(String workflow) {
    return new IllegalArgumentException(
        "no workflow '"
            + workflow
            + "' in the master; store it first with: "
            + "flipper workflow apply FILE");
  }

  /**
   * Starts the slots from {@code from} to {@code to}, both included, never more than the schedule's
   * {@code maxRunning} running at once; returns the new instance ids, oldest slot first, once every
   * slot has started.
   *
   * @throws IllegalArgumentException if the workflow has no schedule or no stored definition, the
   *     range is not in the past, or it holds more than {@link #MAX_SLOTS} slots
   * @throws InterruptedException while waiting: the slots not yet started are not started
   */
  public static List<String> run(
      TokenMaster master,
      InstanceStarter starter,
      Clock clock,
      String workflow,
      Instant from,
      Instant to,
      BackfillProgress progress)
      throws InterruptedException {
    Instant now = clock.instant();
    if (to.isAfter(now)) {
      throw new IllegalArgumentException(
          "backfill starts past slots only: --to "
              + Readable.time(to)
              + " is after now ("
              + Readable.time(now)
              + "); the scheduler fires the future ones");
    }
    Token token =
        master.query(Query.prefix(ScheduleTokens.name(workflow))).stream()
            .filter(t -> t.name().equals(ScheduleTokens.name(workflow)))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "workflow '"
                            + workflow
                            + "' has no schedule; add a "
                            + "schedule: block and apply it"));
    ScheduleData data = ScheduleTokens.read(token);
    List<Instant> slots = Slots.between(ScheduleFiring.recurrence(data), from, to, MAX_SLOTS);
    List<String> ids = new ArrayList<>();
    while (ids.size() < slots.size()) {
      int running = starter.runs(workflow).runningCount();
      int left = slots.size() - ids.size();
      int room = Math.min(data.maxRunningInstances - running, left);
      if (room <= 0) {
        progress.waitForRoom(running, data.maxRunningInstances, left);
        continue;
      }
      List<Instant> batch = slots.subList(ids.size(), ids.size() + room);
      List<String> started = start(master, starter, clock, workflow, batch);
      if (started.isEmpty()) {
        return ids; // the definition has no jobs to start
      }
      for (int i = 0; i < started.size(); i++) {
        progress.started(started.get(i), batch.get(i));
      }
      ids.addAll(started);
    }
    return ids;
  }

  /** Starts one instance per slot: in one atomic modify if the starter builds tokens. */
  private static List<String> start(
      TokenMaster master,
      InstanceStarter starter,
      Clock clock,
      String workflow,
      List<Instant> slots) {
    if (!starter.buildsTokens()) {
      // The engine writes each instance itself: one modify per slot, oldest first.
      List<String> ids = new ArrayList<>();
      for (Instant slot : slots) {
        ids.add(
            starter
                .start(workflow, params(slot), List.of())
                .orElseThrow(() -> notStored(workflow)));
      }
      return ids;
    }
    InstanceStarter reads =
        starter.forBatch(List.of(workflow)); // the definition read (and parsed) once
    for (int attempt = 0; ; attempt++) {
      long base = clock.millis() + (long) attempt * Math.max(1, slots.size());
      List<Token> updates = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        String id = Long.toString(base + i);
        updates.addAll(
            reads
                .startTokens(workflow, id, params(slots.get(i)))
                .orElseThrow(() -> notStored(workflow)));
        ids.add(id);
      }
      if (updates.isEmpty()) {
        return List.of();
      }
      try {
        master.modify(new ModifyParams(updates, List.of()));
        return ids;
      } catch (TokenException e) {
        // An instance id was taken (another start in the same milliseconds): try later ids.
        if (e.errorCode() != TokenErrorCode.VERSION_CONFLICT || attempt + 1 >= MAX_ID_TRIES) {
          throw e;
        }
      }
    }
  }
}
