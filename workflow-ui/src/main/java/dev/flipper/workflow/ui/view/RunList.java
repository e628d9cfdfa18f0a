package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One page of a workflow's runs, active and archived ({@code /api/workflows/<wf>/runs}). Immutable.
 *
 * @param total how many runs match the filters in all
 * @param offset how many matching runs come before this page
 * @param limit the page size
 */
public record RunList(List<RunRow> runs, long total, int offset, int limit) {
  public RunList {
    runs = List.copyOf(runs);
  }
}
