package dev.flipper.workflow.worker.exec;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one execution ended. Immutable.
 *
 * @param info the command as run, or {@link #DISABLED}
 * @param exitCode 0 = success; {@code -n} = killed by signal {@code n} (see {@link ExitCodes}); 1
 *     if the command could not start or was aborted before it started
 * @param start when the execution began
 * @param end when it ended, cleanup included; equal to {@code start} for a disabled job
 * @param properties key → distinct values in order, from the {@code FLIPPER:}/{@code PINBALL:}
 *     lines
 * @param stdout the stdout log, or null for a disabled job
 * @param stderr the stderr log, or null for a disabled job
 * @param abortReason why the execution was aborted, or null if it was not (an abort that races the
 *     command's own end can leave a reason next to exit code 0: the exit code says how the command
 *     ended)
 * @param timedOut true if the abort was its abort time-out
 * @param cleanupExitCode the cleanup command's exit code, or null if none ran
 * @param error why the command could not be started, or null
 */
public record ExecutionResult(
    String info,
    int exitCode,
    Instant start,
    Instant end,
    Map<String, List<String>> properties,
    Path stdout,
    Path stderr,
    String abortReason,
    boolean timedOut,
    Integer cleanupExitCode,
    String error) {
  public static final String DISABLED = "DISABLED";

  /** The property prefix of the attributes a job passes to its downstream jobs. */
  public static final String EVENT_ATTR = "EVENT_ATTR:";

  public ExecutionResult {
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  public boolean succeeded() {
    return exitCode == 0;
  }

  public boolean aborted() {
    return abortReason != null;
  }

  /**
   * The attributes for the output events: the {@code EVENT_ATTR:<name>} properties with the prefix
   * removed. A downstream {@link CommandTemplate} renders several values of one name comma-joined.
   */
  public Map<String, List<String>> eventAttributes() {
    return eventAttributes(properties);
  }

  /** {@link #eventAttributes()} of any property map (e.g. one read back from the master). */
  public static Map<String, List<String>> eventAttributes(Map<String, List<String>> properties) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    properties.forEach(
        (k, v) -> {
          if (k.startsWith(EVENT_ATTR) && k.length() > EVENT_ATTR.length()) {
            out.put(k.substring(EVENT_ATTR.length()), v);
          }
        });
    return Collections.unmodifiableMap(out);
  }
}
