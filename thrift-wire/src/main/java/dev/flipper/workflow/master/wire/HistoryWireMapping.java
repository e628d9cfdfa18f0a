package dev.flipper.workflow.master.wire;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.workflow.master.thrift.NamedValue;
import dev.flipper.workflow.master.thrift.QueryExecutionsRequest;
import dev.flipper.workflow.master.thrift.QueryExecutionsResponse;
import dev.flipper.workflow.master.thrift.QueryRunsRequest;
import dev.flipper.workflow.master.thrift.QueryRunsResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Converts between master.thrift's run history structs (Flipper's extension) and queue-core's
 * {@code dev.flipper.history} values, both ways: an absent end time, exit code or end reason is an
 * unset field; ordered maps (parameters, logs) travel as lists of {@link NamedValue}, because a
 * Thrift map loses its order. A struct that lacks a required field, or a query the history refuses,
 * fails with IllegalArgumentException saying what (the master answers it with INPUT_ERROR).
 * Stateless.
 */
public final class HistoryWireMapping {

  private HistoryWireMapping() {}

  public static dev.flipper.workflow.master.thrift.RunArchive toWire(RunArchive archive) {
    List<dev.flipper.workflow.master.thrift.ExecutionRecord> executions = new ArrayList<>();
    archive.executions().forEach(e -> executions.add(toWire(e)));
    return new dev.flipper.workflow.master.thrift.RunArchive()
        .setRun(toWire(archive.run()))
        .setExecutions(executions);
  }

  public static RunArchive fromWire(dev.flipper.workflow.master.thrift.RunArchive wire) {
    if (wire.getRun() == null) {
      throw new IllegalArgumentException("the run archive has no run; it is required");
    }
    return new RunArchive(fromWire(wire.getRun()), executionsFromWire(wire.getExecutions()));
  }

  public static dev.flipper.workflow.master.thrift.RunRecord toWire(RunRecord run) {
    dev.flipper.workflow.master.thrift.RunRecord wire =
        new dev.flipper.workflow.master.thrift.RunRecord()
            .setWorkflow(run.workflow())
            .setInstance(run.instance())
            .setStatus(run.status())
            .setStartedBy(run.startedBy())
            .setStartMillis(run.startMillis())
            .setParams(toWire(run.params()))
            .setFailedJobs(new ArrayList<>(run.failedJobs()));
    if (run.endMillis() != null) {
      wire.setEndMillis(run.endMillis());
    }
    return wire;
  }

  public static RunRecord fromWire(dev.flipper.workflow.master.thrift.RunRecord wire) {
    String which = "the run " + wire.getWorkflow() + "/" + wire.getInstance();
    require(wire.getWorkflow(), "a run", "workflow");
    require(wire.getInstance(), "a run of " + wire.getWorkflow(), "instance");
    require(wire.getStatus(), which, "status");
    require(wire.isSetStartMillis() ? wire.getStartMillis() : null, which, "startMillis");
    return new RunRecord(
        wire.getWorkflow(),
        wire.getInstance(),
        wire.getStatus(),
        wire.getStartedBy(),
        wire.getStartMillis(),
        wire.isSetEndMillis() ? wire.getEndMillis() : null,
        fromWire(wire.getParams(), which + ": params"),
        wire.getFailedJobs());
  }

  public static dev.flipper.workflow.master.thrift.ExecutionRecord toWire(
      ExecutionRecord execution) {
    dev.flipper.workflow.master.thrift.ExecutionRecord wire =
        new dev.flipper.workflow.master.thrift.ExecutionRecord()
            .setWorkflow(execution.workflow())
            .setInstance(execution.instance())
            .setJob(execution.job())
            .setExecution(execution.execution())
            .setAttempt(execution.attempt())
            .setStatus(execution.status())
            .setStartMillis(execution.startMillis())
            .setWorker(execution.worker())
            .setHost(execution.host())
            .setLogs(toWire(execution.logs()));
    if (execution.endMillis() != null) {
      wire.setEndMillis(execution.endMillis());
    }
    if (execution.exitCode() != null) {
      wire.setExitCode(execution.exitCode());
    }
    if (execution.endReason() != null) {
      wire.setEndReason(execution.endReason());
    }
    return wire;
  }

  public static ExecutionRecord fromWire(dev.flipper.workflow.master.thrift.ExecutionRecord wire) {
    String which =
        "the execution of " + wire.getWorkflow() + "/" + wire.getInstance() + "/" + wire.getJob();
    require(wire.getWorkflow(), "an execution", "workflow");
    require(wire.getInstance(), "an execution of " + wire.getWorkflow(), "instance");
    require(
        wire.getJob(), "an execution of " + wire.getWorkflow() + "/" + wire.getInstance(), "job");
    require(wire.getStatus(), which, "status");
    require(wire.isSetExecution() ? wire.getExecution() : null, which, "execution");
    require(wire.isSetAttempt() ? wire.getAttempt() : null, which, "attempt");
    require(wire.isSetStartMillis() ? wire.getStartMillis() : null, which, "startMillis");
    return new ExecutionRecord(
        wire.getWorkflow(),
        wire.getInstance(),
        wire.getJob(),
        wire.getExecution(),
        wire.getAttempt(),
        wire.getStatus(),
        wire.getStartMillis(),
        wire.isSetEndMillis() ? wire.getEndMillis() : null,
        wire.isSetExitCode() ? wire.getExitCode() : null,
        wire.getWorker(),
        wire.getHost(),
        wire.getEndReason(),
        fromWire(wire.getLogs(), which + ": logs"));
  }

  /** Every field set but those the query leaves open, so the request reads as the query. */
  public static QueryRunsRequest toWire(RunQuery query) {
    QueryRunsRequest wire =
        new QueryRunsRequest()
            .setSort(query.sort().name())
            .setOffset(query.offset())
            .setLimit(query.limit());
    if (query.workflow() != null) {
      wire.setWorkflow(query.workflow());
    }
    if (!query.statuses().isEmpty()) {
      wire.setStatuses(new HashSet<>(query.statuses()));
    }
    if (!query.startedBy().isEmpty()) {
      wire.setStartedBy(new HashSet<>(query.startedBy()));
    }
    if (query.startFrom() != null) {
      wire.setStartFrom(query.startFrom());
    }
    if (query.startBefore() != null) {
      wire.setStartBefore(query.startBefore());
    }
    if (query.text() != null) {
      wire.setText(query.text());
    }
    return wire;
  }

  /** Unset sort: NEWEST; unset offset: 0; unset limit: {@link RunQuery#MAX_LIMIT}. */
  public static RunQuery fromWire(QueryRunsRequest wire) {
    return new RunQuery(
        wire.getWorkflow(),
        wire.getStatuses(),
        wire.getStartedBy(),
        wire.isSetStartFrom() ? wire.getStartFrom() : null,
        wire.isSetStartBefore() ? wire.getStartBefore() : null,
        wire.getText(),
        sortFromWire(wire.getSort()),
        wire.isSetOffset() ? wire.getOffset() : 0,
        wire.isSetLimit() ? wire.getLimit() : RunQuery.MAX_LIMIT);
  }

  public static QueryExecutionsRequest toWire(ExecutionQuery query) {
    QueryExecutionsRequest wire =
        new QueryExecutionsRequest()
            .setWorkflow(query.workflow())
            .setOffset(query.offset())
            .setLimit(query.limit());
    if (query.job() != null) {
      wire.setJob(query.job());
    }
    if (!query.instances().isEmpty()) {
      wire.setInstances(new ArrayList<>(query.instances()));
    }
    if (!query.statuses().isEmpty()) {
      wire.setStatuses(new HashSet<>(query.statuses()));
    }
    return wire;
  }

  /** Unset offset: 0; unset limit: {@link RunQuery#MAX_LIMIT}. */
  public static ExecutionQuery fromWire(QueryExecutionsRequest wire) {
    return new ExecutionQuery(
        wire.getWorkflow(),
        wire.getJob(),
        wire.getInstances(),
        wire.getStatuses(),
        wire.isSetOffset() ? wire.getOffset() : 0,
        wire.isSetLimit() ? wire.getLimit() : RunQuery.MAX_LIMIT);
  }

  public static QueryRunsResponse toWire(RunPage page) {
    List<dev.flipper.workflow.master.thrift.RunRecord> runs = new ArrayList<>();
    page.runs().forEach(r -> runs.add(toWire(r)));
    return new QueryRunsResponse().setRuns(runs).setTotal(page.total());
  }

  public static RunPage fromWire(QueryRunsResponse wire) {
    require(wire.isSetTotal() ? wire.getTotal() : null, "the master's page of runs", "total");
    List<RunRecord> runs = new ArrayList<>();
    if (wire.getRuns() != null) {
      wire.getRuns().forEach(r -> runs.add(fromWire(r)));
    }
    return new RunPage(runs, wire.getTotal());
  }

  public static QueryExecutionsResponse toWire(ExecutionPage page) {
    List<dev.flipper.workflow.master.thrift.ExecutionRecord> executions = new ArrayList<>();
    page.executions().forEach(e -> executions.add(toWire(e)));
    return new QueryExecutionsResponse().setExecutions(executions).setTotal(page.total());
  }

  public static ExecutionPage fromWire(QueryExecutionsResponse wire) {
    require(wire.isSetTotal() ? wire.getTotal() : null, "the master's page of executions", "total");
    return new ExecutionPage(executionsFromWire(wire.getExecutions()), wire.getTotal());
  }

  private static List<ExecutionRecord> executionsFromWire(
      List<dev.flipper.workflow.master.thrift.ExecutionRecord> wire) {
    List<ExecutionRecord> executions = new ArrayList<>();
    if (wire != null) {
      wire.forEach(e -> executions.add(fromWire(e)));
    }
    return executions;
  }

  private static List<NamedValue> toWire(Map<String, String> map) {
    List<NamedValue> wire = new ArrayList<>(map.size());
    // A null value leaves the field unset, which reads back as null.
    map.forEach((name, value) -> wire.add(new NamedValue().setName(name).setValue(value)));
    return wire;
  }

  /** In list order; {@code where} names the map in errors. */
  private static Map<String, String> fromWire(List<NamedValue> wire, String where) {
    Map<String, String> map = new LinkedHashMap<>();
    if (wire != null) {
      for (NamedValue entry : wire) {
        if (entry.getName() == null) {
          throw new IllegalArgumentException(where + ": an entry has no name; names are required");
        }
        if (map.containsKey(entry.getName())) {
          throw new IllegalArgumentException(
              where + ": '" + entry.getName() + "' appears twice; names must be unique");
        }
        map.put(entry.getName(), entry.getValue());
      }
    }
    return map;
  }

  private static RunSort sortFromWire(String sort) {
    if (sort == null) {
      return RunSort.NEWEST;
    }
    try {
      return RunSort.valueOf(sort);
    } catch (IllegalArgumentException unknown) {
      throw new IllegalArgumentException(
          "run query sort is '"
              + sort
              + "'; use "
              + Arrays.stream(RunSort.values()).map(Enum::name).collect(Collectors.joining(", ")));
    }
  }

  private static void require(Object value, String which, String field) {
    if (value == null) {
      throw new IllegalArgumentException(which + " has no " + field + "; it is required");
    }
  }
}
