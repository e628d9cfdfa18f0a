package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;

/**
 * The schedules page ({@code /schedules}, {@code /api/schedules}): one row per scheduled workflow.
 * Immutable.
 *
 * @param damaged the page's tokens that do not parse, shown as {@code DAMAGED <name>: <reason>}
 *     rows
 */
public record SchedulesPage(
    Banner banner, List<ScheduleRow> schedules, List<DamagedToken> damaged) {
  public SchedulesPage {
    damaged = List.copyOf(damaged);
    schedules = List.copyOf(schedules);
  }
}
