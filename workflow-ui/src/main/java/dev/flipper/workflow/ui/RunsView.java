package dev.flipper.workflow.ui;

import dev.flipper.history.RunPage;
import dev.flipper.history.RunRecord;
import dev.flipper.workflow.engine.RunHistory;
import dev.flipper.workflow.ui.view.Paging;
import dev.flipper.workflow.ui.view.RunList;
import dev.flipper.workflow.ui.view.RunRow;
import dev.flipper.workflow.ui.view.RunsPage;
import java.time.Instant;

/**
 * A workflow's runs, active and archived, as one filtered, sorted page (the workflow page's runs
 * and {@code /api/workflows/<wf>/runs}): one read of the engine's {@link RunHistory}. Thread-safe.
 */
final class RunsView {
  private final RunHistory history;

  RunsView(RunHistory history) {
    this.history = history;
  }

  RunList list(String workflow, RunFilters filters) {
    RunPage page = history.runs(filters.runs(workflow));
    return new RunList(
        page.runs().stream().map(RunsView::row).toList(),
        page.total(),
        filters.offset(),
        filters.size());
  }

  RunsPage page(String workflow, RunFilters filters) {
    RunList list = list(workflow, filters);
    return new RunsPage(
        list, filters, Paging.of(filters.page(), filters.size(), list.runs().size(), list.total()));
  }

  static RunRow row(RunRecord run) {
    return new RunRow(
        run.workflow(),
        run.instance(),
        run.status(),
        run.startedBy(),
        Views.iso(Instant.ofEpochMilli(run.startMillis())),
        run.endMillis() == null ? null : Views.iso(Instant.ofEpochMilli(run.endMillis())),
        run.durationMillis().orElse(null),
        run.params(),
        run.failedJobs());
  }
}
