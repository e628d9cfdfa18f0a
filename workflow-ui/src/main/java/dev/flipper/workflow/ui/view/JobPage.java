package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * A job of an instance ({@code .../jobs/<job>}): its executions, oldest first. Immutable.
 *
 * @param archived the instance was read from the master's archive
 */
public record JobPage(
    Banner banner,
    String workflow,
    String instance,
    JobRow job,
    List<ExecutionRow> executions,
    boolean archived) {
  public JobPage {
    executions = List.copyOf(executions);
  }
}
