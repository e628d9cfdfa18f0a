package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.tokens.DamagedToken;
import java.util.List;

/** The workflows list ({@code /}, {@code /api/workflows}). Immutable. */
public record WorkflowsPage(
    Banner banner, List<WorkflowRow> workflows, List<DamagedToken> damaged) {
  public WorkflowsPage {
    damaged = List.copyOf(damaged);
    workflows = List.copyOf(workflows);
  }
}
