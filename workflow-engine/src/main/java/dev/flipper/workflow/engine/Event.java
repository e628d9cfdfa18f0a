package dev.flipper.workflow.engine;

import java.util.Map;

/**
 * An event that made a job runnable: one per input. Immutable.
 *
 * @param input the parent job that sent it, or {@code __WORKFLOW_START__} for a job that starts
 *     with the instance
 * @param creator {@code <parent>#<execution>}, or {@code start}
 * @param attributes the parent's {@code EVENT_ATTR:} properties, read by the command as {@code
 *     %(name)s}
 */
public record Event(String input, String creator, Map<String, String> attributes) {
  public Event {
    attributes = Map.copyOf(attributes);
  }
}
