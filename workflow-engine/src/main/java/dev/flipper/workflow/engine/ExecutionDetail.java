package dev.flipper.workflow.engine;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One execution of a job, as the CLI and the UI show it. Immutable.
 *
 * @param execution 1-based number in the job's history
 * @param attempt 1-based attempt within its run
 * @param command the command as run, or {@code DISABLED}
 * @param end empty while it runs
 * @param exitCode null while it runs, or when it ended without one (lease lost)
 * @param endReason why it ended other than by exiting ({@code lease lost}, {@code handed back},
 *     ...), or null
 * @param logs log name to URL
 */
public record ExecutionDetail(
    int execution,
    int attempt,
    String command,
    String worker,
    String host,
    Instant start,
    Optional<Instant> end,
    Integer exitCode,
    Integer cleanupExitCode,
    String endReason,
    Map<String, List<String>> properties,
    Map<String, String> logs) {
  public boolean running() {
    return end.isEmpty();
  }
}
