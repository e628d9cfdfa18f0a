package dev.flipper.workflow.scheduler.overrun;

import java.util.List;

/** What the scheduler does with a due slot. Immutable. */
public sealed interface OverrunDecision {

  /**
   * Start an instance for the slot and move the schedule on; first abort {@code abort}
   * (ABORT_RUNNING).
   */
  record Start(List<String> abort) implements OverrunDecision {
    public Start {
      abort = List.copyOf(abort);
    }
  }

  /** Do not start; move the schedule past the slot (SKIP with an instance running). */
  record Skip(String reason) implements OverrunDecision {}

  /**
   * Do not start and keep the slot: look again later (DELAY, DELAY_UNTIL_SUCCESS). The slot starts
   * late once the condition clears.
   */
  record Wait(String reason) implements OverrunDecision {}

  /**
   * A start is due but {@code running} instances already run and at most {@code maxRunning} may:
   * keep the slot, look again later, and mail the workflow's recipients ("too many instances").
   */
  record TooMany(int running, int maxRunning) implements OverrunDecision {}
}
