package dev.flipper.history;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One finished workflow instance as the run history keeps it. Keyed by {@code (workflow,
 * instance)}: an instance archived again (after a retry) replaces its row.
 *
 * @param status the instance's final status (SUCCESS, FAILURE, ABORTED, ...)
 * @param startedBy the trigger: {@code scheduler}, {@code cli}, {@code ui}, {@code backfill},
 *     {@code retry}, ...; may be empty
 * @param endMillis null only for a record written before the instance ended
 * @param params the instance's parameters, in their given order
 * @param failedJobs jobs that failed for good, in the order they failed
 */
public record RunRecord(
    String workflow,
    String instance,
    String status,
    String startedBy,
    long startMillis,
    Long endMillis,
    Map<String, String> params,
    List<String> failedJobs) {

  public RunRecord {
    Objects.requireNonNull(workflow, "workflow");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(status, "status");
    startedBy = startedBy == null ? "" : startedBy;
    params =
        params == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    failedJobs = failedJobs == null ? List.of() : List.copyOf(failedJobs);
  }

  /** End minus start; empty while the record has no end. */
  public Optional<Long> durationMillis() {
    return Optional.ofNullable(endMillis).map(end -> end - startMillis);
  }
}
