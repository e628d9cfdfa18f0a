package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One workflow's schedule: what its schedule token says (the scheduler's state), else what its
 * stored definition asks for. Immutable; times are ISO-8601 UTC text or null.
 *
 * @param state {@code scheduled}; {@code waiting} (stored, not yet placed in time by a scheduler);
 *     {@code unscheduled} (the definition has a schedule, the token was removed: {@code reschedule}
 *     writes it again); {@code no definition} (a token without a stored definition: the scheduler
 *     skips it)
 * @param every the interval of an {@code every} schedule ({@code 1h}), else null
 * @param cron the cron expression, else null; {@code timezone} the zone it is read in
 * @param nextRun the next slot the scheduler fires, or null if not placed (or unscheduled)
 * @param lastRun when the newest active instance started (by schedule or by hand), or null
 */
public record ScheduleRow(
    String workflow,
    String state,
    String every,
    String cron,
    String timezone,
    String overrunPolicy,
    Integer maxRunning,
    int catchUp,
    String nextRun,
    String lastRun,
    String lastInstance,
    String lastStatus,
    int runningInstances,
    List<String> emails) {
  public ScheduleRow {
    emails = List.copyOf(emails);
  }

  /** True if the action bar offers {@code unschedule} (else {@code reschedule}). */
  public boolean hasToken() {
    return !"unscheduled".equals(state);
  }
}
