package dev.flipper.workflow.ui;

import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunRecord;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.RunGrid;
import dev.flipper.workflow.engine.RunHistory;
import dev.flipper.workflow.ui.view.Banner;
import dev.flipper.workflow.ui.view.GridCell;
import dev.flipper.workflow.ui.view.GridPage;
import dev.flipper.workflow.ui.view.GridRow;
import dev.flipper.workflow.ui.view.GridRun;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A workflow's grid (Airflow's): its latest runs as columns, oldest left and newest right, jobs as
 * rows, each cell the status of the job's last execution in that run; and the bars of the run-time
 * chart above it. One read of the engine's {@link RunHistory#grid}. Thread-safe.
 */
final class GridView {
  static final int DEFAULT_RUNS = 25;
  static final int MAX_RUNS = 100;

  private final RunHistory history;
  private final Clock clock;

  GridView(RunHistory history, Clock clock) {
    this.history = history;
    this.clock = clock;
  }

  /**
   * @param runsParam the {@code runs} parameter as given (null: {@link #DEFAULT_RUNS})
   * @param definition the jobs' order; empty: the order they first ran in
   * @throws IllegalArgumentException if {@code runs} is not a number from 1 to {@link #MAX_RUNS}
   */
  GridPage page(
      Banner banner, String workflow, String runsParam, Optional<WorkflowDefinition> definition) {
    int requested = runs(runsParam);
    RunGrid grid = history.grid(workflow, requested);
    List<RunRecord> oldestFirst = new ArrayList<>(grid.runs());
    java.util.Collections.reverse(oldestFirst);
    Set<String> jobs = new LinkedHashSet<>();
    definition.ifPresent(d -> d.jobs().stream().map(JobDefinition::name).forEach(jobs::add));
    oldestFirst.forEach(run -> jobs.addAll(grid.executions().get(run.instance()).keySet()));

    long now = clock.millis();
    long longest = 1;
    for (RunRecord run : oldestFirst) {
      longest = Math.max(longest, duration(run, now));
    }
    List<GridRun> columns = new ArrayList<>();
    for (int i = 0; i < oldestFirst.size(); i++) {
      RunRecord run = oldestFirst.get(i);
      long duration = duration(run, now);
      columns.add(
          new GridRun(
              run.instance(),
              run.status(),
              run.startedBy(),
              Views.iso(Instant.ofEpochMilli(run.startMillis())),
              run.endMillis() == null ? null : Views.iso(Instant.ofEpochMilli(run.endMillis())),
              duration,
              i * GridPage.BAR_STEP,
              (int) Math.max(2, Math.round((double) GridPage.CHART_HEIGHT * duration / longest))));
    }
    List<GridRow> rows = new ArrayList<>();
    for (String job : jobs) {
      List<GridCell> cells = new ArrayList<>();
      for (RunRecord run : oldestFirst) {
        List<ExecutionRecord> executions = grid.executions().get(run.instance()).get(job);
        cells.add(executions == null ? null : cell(workflow, job, executions));
      }
      rows.add(new GridRow(job, cells));
    }
    return new GridPage(banner, workflow, requested, columns, rows, longest);
  }

  private static GridCell cell(String workflow, String job, List<ExecutionRecord> oldestFirst) {
    ExecutionRecord last = oldestFirst.get(oldestFirst.size() - 1);
    int attempts = oldestFirst.size();
    Map<String, String> logs = last.logs();
    String link =
        logs.isEmpty()
            ? Links.job(workflow, last.instance(), job)
            : Links.log(
                workflow,
                last.instance(),
                job,
                last.execution(),
                logs.containsKey("stdout") ? "stdout" : logs.keySet().iterator().next());
    String label =
        "job "
            + job
            + " in run "
            + last.instance()
            + ": "
            + last.status()
            + (attempts > 1 ? " after " + attempts + " attempts" : "");
    return new GridCell(last.instance(), last.status(), last.execution(), attempts, link, label);
  }

  private static long duration(RunRecord run, long now) {
    return Math.max(0, (run.endMillis() == null ? now : run.endMillis()) - run.startMillis());
  }

  private static int runs(String param) {
    if (param == null || param.isBlank()) {
      return DEFAULT_RUNS;
    }
    try {
      int runs = Integer.parseInt(param.strip());
      if (runs >= 1 && runs <= MAX_RUNS) {
        return runs;
      }
    } catch (NumberFormatException e) {
      // the message below says what is allowed
    }
    throw new IllegalArgumentException(
        "parameter 'runs' is '" + param + "'; use a whole number from 1 to " + MAX_RUNS);
  }
}
