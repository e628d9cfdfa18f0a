package dev.flipper.workflow.ui;

import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Jobs and executions as the engine reads them, with times in seconds after {@link #T0}. */
final class TimelineJobs {
  static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

  private TimelineJobs() {}

  static Instant at(double seconds) {
    return T0.plusMillis(Math.round(seconds * 1000));
  }

  /** A job with these parents (none: it needs the instance's start) and executions. */
  static JobDetail job(String name, List<String> parents, ExecutionDetail... executions) {
    List<ExecutionDetail> list = Arrays.asList(executions);
    JobStatus status =
        list.isEmpty()
            ? JobStatus.WAITING
            : switch (Timeline.status(list.get(list.size() - 1))) {
              case "RUNNING" -> JobStatus.RUNNING;
              case "SUCCESS" -> JobStatus.SUCCESS;
              default -> JobStatus.FAILURE;
            };
    return new JobDetail(
        name,
        status,
        parents.isEmpty() ? List.of("__WORKFLOW_START__") : parents,
        list.isEmpty() ? 0 : list.get(list.size() - 1).attempt(),
        3,
        false,
        false,
        0,
        null,
        Optional.empty(),
        list);
  }

  /** An execution from {@code start} to {@code end} seconds that exited with {@code exit}. */
  static ExecutionDetail ran(int execution, int attempt, double start, double end, int exit) {
    return new ExecutionDetail(
        execution,
        attempt,
        "./run.sh",
        "worker-" + execution,
        "host-1",
        at(start),
        Optional.of(at(end)),
        exit,
        null,
        null,
        Map.of(),
        Map.of(
            "stdout",
            "http://host-1:9093/logs/x.stdout",
            "stderr",
            "http://host-1:9093/logs/x.stderr"));
  }

  /** An execution that started at {@code start} seconds and still runs. */
  static ExecutionDetail running(int execution, int attempt, double start) {
    return new ExecutionDetail(
        execution,
        attempt,
        "./run.sh",
        "worker-" + execution,
        "host-1",
        at(start),
        Optional.empty(),
        null,
        null,
        null,
        Map.of(),
        Map.of());
  }
}
