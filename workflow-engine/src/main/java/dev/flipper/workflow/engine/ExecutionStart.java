package dev.flipper.workflow.engine;

import java.util.Map;
import java.util.Objects;

/**
 * What a worker records when it starts a claimed job, before the process starts. Immutable.
 *
 * @param command the command as it will run (templates filled in)
 * @param host the worker's host name
 * @param logs log name ({@code stdout}, {@code stderr}) to the URL where the worker serves it
 */
public record ExecutionStart(String command, String host, Map<String, String> logs) {
  public ExecutionStart {
    Objects.requireNonNull(command, "command");
    logs = logs == null ? Map.of() : Map.copyOf(logs);
  }
}
