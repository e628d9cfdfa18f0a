package dev.flipper.workflow.ui.view;

import java.util.List;

/** The workflows list ({@code /}, {@code /api/workflows}). Immutable. */
public record WorkflowsPage(Banner banner, List<WorkflowRow> workflows) {
  public WorkflowsPage {
    workflows = List.copyOf(workflows);
  }
}
