package dev.flipper.workflow.engine;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every run of a workflow, active or archived, as one history: active instances are read from their
 * tokens, archived ones from the master's run history ({@link TokenMaster#queryRuns}), and the two
 * are merged into one sorted, filtered, paged list. Active instances are few, so a page costs one
 * history query whatever its offset. Thread-safe.
 */
public final class RunHistory {
  private final TokenMaster master;
  private final StatusReader status;

  RunHistory(TokenMaster master, StatusReader status) {
    this.master = master;
    this.status = status;
  }

  /** One page of runs, active and archived, as the query filters and sorts them. */
  public RunPage runs(RunQuery query) {
    List<RunRecord> active = new ArrayList<>();
    for (String workflow : activeWorkflows(query.workflow())) {
      for (InstanceSummary summary : status.instances(workflow)) {
        RunRecord run = RunRecords.run(summary);
        if (query.matches(run)) {
          active.add(run);
        }
      }
    }
    Merged<RunRecord> merged =
        merge(
            active,
            query.order(),
            query.offset(),
            query.limit(),
            (offset, limit) -> {
              RunPage page = master.queryRuns(withPage(query, offset, limit));
              return new Fetched<>(page.runs(), page.total());
            });
    return new RunPage(merged.page(), merged.total());
  }

  /** The latest run of a workflow, active or archived. */
  public Optional<RunRecord> latest(String workflow) {
    return runs(RunQuery.latest(workflow, 1)).runs().stream().findFirst();
  }

  /** One page of job executions of active and archived instances, newest first. */
  public ExecutionPage executions(ExecutionQuery query) {
    List<ExecutionRecord> active = new ArrayList<>();
    for (InstanceSummary summary : status.instances(query.workflow())) {
      if (!query.instances().isEmpty() && !query.instances().contains(summary.instance())) {
        continue;
      }
      status
          .instance(query.workflow(), summary.instance())
          .ifPresent(
              detail ->
                  RunRecords.executions(detail, "RUNNING").stream()
                      .filter(query::matches)
                      .forEach(active::add));
    }
    Merged<ExecutionRecord> merged =
        merge(
            active,
            ExecutionQuery.ORDER,
            query.offset(),
            query.limit(),
            (offset, limit) -> {
              ExecutionPage page =
                  master.queryExecutions(
                      new ExecutionQuery(
                          query.workflow(),
                          query.job(),
                          query.instances(),
                          query.statuses(),
                          offset,
                          limit));
              return new Fetched<>(page.executions(), page.total());
            });
    return new ExecutionPage(merged.page(), merged.total());
  }

  /**
   * The latest {@code runs} runs of a workflow (newest first) and each one's executions by job
   * (oldest first), as Airflow's grid shows them.
   */
  public RunGrid grid(String workflow, int runs) {
    List<RunRecord> latest = runs(RunQuery.latest(workflow, runs)).runs();
    Map<String, Map<String, List<ExecutionRecord>>> cells = new LinkedHashMap<>();
    latest.forEach(run -> cells.put(run.instance(), new LinkedHashMap<>()));
    if (!latest.isEmpty()) {
      List<String> instances = latest.stream().map(RunRecord::instance).toList();
      List<ExecutionRecord> executions = new ArrayList<>();
      ExecutionPage page;
      do {
        page =
            executions(
                new ExecutionQuery(
                    workflow, null, instances, null, executions.size(), RunQuery.MAX_LIMIT));
        executions.addAll(page.executions());
      } while (!page.executions().isEmpty() && executions.size() < page.total());
      executions.sort(ExecutionQuery.ORDER.reversed());
      for (ExecutionRecord e : executions) {
        cells.get(e.instance()).computeIfAbsent(e.job(), j -> new ArrayList<>()).add(e);
      }
    }
    return new RunGrid(latest, cells);
  }

  private List<String> activeWorkflows(String workflow) {
    if (workflow != null) {
      return List.of(workflow);
    }
    return master.group(TokenLayout.WORKFLOWS, "/").keySet().stream()
        .map(TokenLayout::last)
        .toList();
  }

  private static RunQuery withPage(RunQuery q, int offset, int limit) {
    return new RunQuery(
        q.workflow(),
        q.statuses(),
        q.startedBy(),
        q.startFrom(),
        q.startBefore(),
        q.text(),
        q.sort(),
        offset,
        limit);
  }

  /** A page read from the master's history, and how many rows match there in all. */
  private record Fetched<T>(List<T> rows, long total) {}

  private record Merged<T>(List<T> page, long total) {}

  @FunctionalInterface
  private interface Fetch<T> {
    Fetched<T> fetch(int offset, int limit);
  }

  /**
   * The page at {@code offset} of the sorted merge of {@code active} (every match, any order) and
   * the recorded rows, fetched from the master. With {@code a} active rows, the page's first
   * recorded row is at recorded index {@code r0 >= offset - a}; reading from {@code r0 - 1} tells
   * how many active rows sort before it, so no page ever reads the recorded rows before it.
   */
  static <T> Merged<T> merge(
      List<T> active, Comparator<T> order, int offset, int limit, Fetch<T> recorded) {
    List<T> sortedActive = new ArrayList<>(active);
    sortedActive.sort(order);
    int r0 = Math.max(0, offset - sortedActive.size());
    int from = Math.max(0, r0 - 1);
    int wanted = (r0 - from) + limit + sortedActive.size();
    List<T> rows = new ArrayList<>();
    long total = 0;
    while (rows.size() < wanted) {
      int size = Math.min(RunQuery.MAX_LIMIT, wanted - rows.size());
      Fetched<T> page = recorded.fetch(from + rows.size(), size);
      rows.addAll(page.rows());
      total = page.total();
      if (page.rows().size() < size) {
        break;
      }
    }
    T previous = r0 > 0 && !rows.isEmpty() ? rows.get(0) : null;
    List<T> after = rows.subList(previous == null ? 0 : 1, rows.size());
    int before = 0;
    List<T> merged = new ArrayList<>();
    for (T run : sortedActive) {
      if (previous != null && order.compare(run, previous) < 0) {
        before++;
      } else {
        merged.add(run);
      }
    }
    merged.addAll(after);
    merged.sort(order);
    int start = offset - (r0 + before);
    List<T> page =
        start >= merged.size()
            ? List.of()
            : List.copyOf(merged.subList(start, Math.min(merged.size(), start + limit)));
    return new Merged<>(page, total + sortedActive.size());
  }
}
