package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One execution of a job in its history across runs. Immutable; times are ISO-8601 UTC text.
 *
 * @param durationMillis null while it runs (or if it never reported an end)
 * @param logs the log names it has (stdout, stderr)
 */
public record JobExecution(
    String instance,
    int execution,
    int attempt,
    String status,
    String start,
    String end,
    Long durationMillis,
    Integer exitCode,
    String endReason,
    String worker,
    String host,
    List<String> logs) {
  public JobExecution {
    logs = List.copyOf(logs);
  }
}
