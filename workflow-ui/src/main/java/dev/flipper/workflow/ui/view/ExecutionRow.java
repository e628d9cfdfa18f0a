package dev.flipper.workflow.ui.view;

import java.util.List;

/**
 * One execution of a job. Immutable; times ISO-8601 UTC text, {@code end} null while it runs.
 *
 * @param exitCode null while it runs or when it ended without one ({@code endReason} says why)
 * @param logs the names of its logs ({@code stdout}, {@code stderr}); read them through the UI's
 *     log API
 */
public record ExecutionRow(
    int execution,
    int attempt,
    String command,
    Integer exitCode,
    Integer cleanupExitCode,
    String endReason,
    String start,
    String end,
    long durationMillis,
    String worker,
    String host,
    boolean running,
    List<Property> properties,
    List<String> logs) {
  public ExecutionRow {
    properties = List.copyOf(properties);
    logs = List.copyOf(logs);
  }
}
