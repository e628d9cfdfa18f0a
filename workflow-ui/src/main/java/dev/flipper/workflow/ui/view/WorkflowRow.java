package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One row of the workflows list. Immutable; times are ISO-8601 UTC text or null.
 *
 * @param schedule the schedule as written ({@code every 1h}, {@code cron 0 * * * * (UTC)}), or null
 * @param nextRun the scheduler's next run, or null if not scheduled or not yet placed in time
 * @param status RUNNING if any instance runs, else the last instance's status; null without
 *     instances
 * @param runTimeMillis of the last instance: end (or now) minus start
 * @param successRatePercent SUCCESS among the last {@code finishedCounted} finished instances; null
 *     if none
 */
public record WorkflowRow(
    String name,
    List<String> owners,
    String schedule,
    String nextRun,
    String status,
    String lastInstance,
    String lastStart,
    String lastEnd,
    Long runTimeMillis,
    int runningInstances,
    Integer successRatePercent,
    int finishedCounted) {
  public WorkflowRow {
    owners = List.copyOf(owners);
  }
}
