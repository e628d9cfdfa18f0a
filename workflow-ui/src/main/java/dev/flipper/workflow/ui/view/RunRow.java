package dev.flipper.workflow.ui.view;

import java.util.List;
import java.util.Map;

/**
 * One run (instance) of a workflow in a runs list, active or archived. Immutable; times are
 * ISO-8601 UTC text, {@code end} and {@code durationMillis} null while it runs.
 *
 * @param startedBy the trigger: scheduler, cli, retry, backfill, a UI user's name...; may be empty
 */
public record RunRow(
    String workflow,
    String instance,
    String status,
    String startedBy,
    String start,
    String end,
    Long durationMillis,
    Map<String, String> params,
    List<String> failedJobs) {
  public RunRow {
    params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    failedJobs = List.copyOf(failedJobs);
  }
}
