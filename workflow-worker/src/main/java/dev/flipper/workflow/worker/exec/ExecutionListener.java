package dev.flipper.workflow.worker.exec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a running execution tells the engine before it ends. Methods are called from the execution's
 * output and timer threads, possibly at the same time, so implementations must be thread-safe and
 * quick (hand slow work, such as writing to the master, to another thread).
 */
public interface ExecutionListener {
  ExecutionListener NONE = new ExecutionListener() {};

  /**
   * A property line added a value. The engine flushes the properties to the master (the original
   * wrote them on its next lease renewal).
   *
   * @param properties all properties so far (an immutable snapshot)
   */
  default void onProperties(Map<String, List<String>> properties) {}

  /** The job ran longer than its warn time-out. Called at most once per execution. */
  default void onWarnTimeout(Duration warnTimeout) {}
}
