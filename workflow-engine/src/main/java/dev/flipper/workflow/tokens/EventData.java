package dev.flipper.workflow.tokens;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An event: one parent's success delivered to one input of a child ({@code kind: "event"}). Its
 * attributes are the parent's {@code EVENT_ATTR:} properties, which the child's command reads as
 * {@code %(name)s}.
 */
public final class EventData extends TokenData {
  /**
   * Who made it: {@code <job>#<execution>} for a job's success, {@code start} for the instance
   * start.
   */
  public String creator;

  /** In a job's {@code events}: the input it arrived on (an event token's name says it already). */
  public String input;

  public Map<String, String> attributes = new LinkedHashMap<>();

  public EventData() {
    super("event");
  }

  public static EventData of(String input, String creator, Map<String, String> attributes) {
    EventData event = new EventData();
    event.input = input;
    event.creator = creator;
    event.attributes = new LinkedHashMap<>(attributes);
    return event;
  }
}
