package dev.flipper.workflow.engine;

import java.util.List;
import java.util.Map;

/**
 * How an execution ended. Immutable.
 *
 * @param exitCode 0 = success; negative = killed by that signal
 * @param cleanupExitCode the exit code of the cleanup command, or null when none ran
 * @param properties {@code FLIPPER:key=value} lines, each key's unique values in order; {@code
 *     EVENT_ATTR:name} keys become attributes of the events sent to the children
 * @param endReason why it ended other than by exiting on its own (e.g. {@code abort timeout}), or
 *     null
 */
public record ExecutionResult(
    int exitCode, Integer cleanupExitCode, Map<String, List<String>> properties, String endReason) {
  public ExecutionResult {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  public static ExecutionResult exit(int exitCode) {
    return new ExecutionResult(exitCode, null, Map.of(), null);
  }

  public static ExecutionResult exit(int exitCode, Map<String, List<String>> properties) {
    return new ExecutionResult(exitCode, null, properties, null);
  }

  public boolean succeeded() {
    return exitCode == 0;
  }
}
