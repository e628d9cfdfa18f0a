package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;

/**
 * The workflows list ({@code /}, {@code /api/workflows}). Immutable.
 *
 * @param damaged the page's tokens that do not parse, shown as {@code DAMAGED <name>: <reason>}
 *     rows
 */
public record WorkflowsPage(
    Banner banner, List<WorkflowRow> workflows, List<DamagedToken> damaged) {
  public WorkflowsPage {
    damaged = List.copyOf(damaged);
    workflows = List.copyOf(workflows);
  }
}
