package dev.flipper.workflow.ui.view;

import dev.flipper.workflow.ui.RunFilters;
import java.util.List;

/**
 * Every execution of one job across a workflow's runs ({@code /workflows/<wf>/jobs/<job>}), newest
 * first, one page of them. Immutable.
 *
 * @param total how many executions match the filters in all
 */
public record JobHistoryPage(
    Banner banner,
    String workflow,
    String job,
    List<JobExecution> executions,
    long total,
    int offset,
    int limit,
    RunFilters filters,
    Paging paging) {
  public JobHistoryPage {
    executions = List.copyOf(executions);
  }
}
