package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * The schedules page ({@code /schedules}, {@code /api/schedules}): one row per scheduled workflow.
 * Immutable.
 */
public record SchedulesPage(Banner banner, List<ScheduleRow> schedules) {
  public SchedulesPage {
    schedules = List.copyOf(schedules);
  }
}
