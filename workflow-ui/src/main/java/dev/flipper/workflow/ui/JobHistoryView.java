package dev.flipper.workflow.ui;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.workflow.engine.RunHistory;
import dev.flipper.workflow.ui.view.Banner;
import dev.flipper.workflow.ui.view.JobExecution;
import dev.flipper.workflow.ui.view.JobHistoryPage;
import dev.flipper.workflow.ui.view.Paging;
import java.time.Instant;
import java.util.ArrayList;
import java.util.TreeMap;

/**
 * Every execution of one job across a workflow's runs, active and archived, newest first (Pinball's
 * job executions page): one read of the engine's {@link RunHistory#executions}. Thread-safe.
 */
final class JobHistoryView {
  private final RunHistory history;

  JobHistoryView(RunHistory history) {
    this.history = history;
  }

  JobHistoryPage page(Banner banner, String workflow, String job, RunFilters filters) {
    ExecutionPage page = history.executions(filters.executions(workflow, job));
    return new JobHistoryPage(
        banner,
        workflow,
        job,
        page.executions().stream().map(JobHistoryView::row).toList(),
        page.total(),
        filters.offset(),
        filters.size(),
        filters,
        Paging.of(filters.page(), filters.size(), page.executions().size(), page.total()));
  }

  private static JobExecution row(ExecutionRecord e) {
    return new JobExecution(
        e.instance(),
        e.execution(),
        e.attempt(),
        e.status(),
        Views.iso(Instant.ofEpochMilli(e.startMillis())),
        e.endMillis() == null ? null : Views.iso(Instant.ofEpochMilli(e.endMillis())),
        e.durationMillis().orElse(null),
        e.exitCode(),
        e.endReason(),
        e.worker(),
        e.host(),
        new ArrayList<>(new TreeMap<>(e.logs()).keySet()));
  }
}
