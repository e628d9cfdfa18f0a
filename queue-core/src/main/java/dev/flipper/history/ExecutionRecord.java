package dev.flipper.history;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One execution (attempt) of a job in a finished instance.
 *
 * @param execution 1-based number of the execution in the job's lineage within its instance
 * @param attempt 1-based attempt within the job's current run
 * @param status SUCCESS (exit code 0), FAILURE, ABORTED, DISABLED, ...
 * @param exitCode null when the process never exited (lease lost, aborted)
 * @param endReason why it ended other than by exiting, e.g. {@code lease lost}; may be null
 * @param logs log name (stdout, stderr) to the URL the worker serves it at
 */
public record ExecutionRecord(
    String workflow,
    String instance,
    String job,
    int execution,
    int attempt,
    String status,
    long startMillis,
    Long endMillis,
    Integer exitCode,
    String worker,
    String host,
    String endReason,
    Map<String, String> logs) {

  public ExecutionRecord {
    Objects.requireNonNull(workflow, "workflow");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(status, "status");
    worker = worker == null ? "" : worker;
    host = host == null ? "" : host;
    logs =
        logs == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(logs));
  }

  /** End minus start; empty while the execution has no end. */
  public Optional<Long> durationMillis() {
    return Optional.ofNullable(endMillis).map(end -> end - startMillis);
  }
}
