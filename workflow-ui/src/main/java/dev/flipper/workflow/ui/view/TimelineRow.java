package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One job on a timeline. Immutable.
 *
 * @param status the job's status now
 * @param critical whether the job is on the critical path
 * @param bars its executions, oldest first; empty if it has not run
 */
public record TimelineRow(String job, String status, boolean critical, List<TimelineBar> bars) {
  public TimelineRow {
    bars = List.copyOf(bars);
  }
}
