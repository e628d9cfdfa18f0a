package dev.flipper.workflow.tokens;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import dev.flipper.workflow.engine.ExecutionDetail;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One execution (attempt) of a job, an entry of the job's {@code history}. Written open (no end, no
 * exit code) before the process starts, closed when it ends; an open record seen at claim time
 * means the previous worker died or lost its lease. Not a token of its own, so not a {@link
 * TokenData}; it keeps unknown fields the same way.
 */
public final class ExecutionData {
  /** Disabled jobs record this as the command they "ran". */
  public static final String DISABLED_INFO = "DISABLED";

  /**
   * 1-based number of this execution in the job's lineage; never reused, also for condition
   * truncation.
   */
  public int execution;

  /**
   * 1-based attempt within the current run of the job (reset when the job becomes runnable again).
   */
  public int attempt;

  public String instance;

  /** The command as run, or {@link #DISABLED_INFO}. */
  public String info;

  public String worker;
  public String host;
  public long startMillis;
  public Long endMillis;
  public Integer exitCode;
  public Integer cleanupExitCode;

  /** Why the execution ended other than by its process exiting, e.g. {@code lease lost}. */
  public String endReason;

  public Map<String, List<String>> properties = new LinkedHashMap<>();
  public Map<String, String> logs = new LinkedHashMap<>();
  public List<EventData> events = new ArrayList<>();
  private final Map<String, Object> unknown = new LinkedHashMap<>();

  @JsonAnySetter
  void unknown(String key, Object value) {
    unknown.put(key, value);
  }

  @JsonAnyGetter
  Map<String, Object> unknown() {
    return unknown;
  }

  /** This record as the CLI, the UI and the engine's listener see it. */
  public ExecutionDetail toDetail() {
    return new ExecutionDetail(
        execution,
        attempt,
        info,
        worker,
        host,
        Instant.ofEpochMilli(startMillis),
        Optional.ofNullable(endMillis).map(Instant::ofEpochMilli),
        exitCode,
        cleanupExitCode,
        endReason,
        Map.copyOf(properties),
        Map.copyOf(logs));
  }

  public boolean isOpen() {
    return endMillis == null;
  }

  public boolean succeeded() {
    return endMillis != null && exitCode != null && exitCode == 0;
  }
}
