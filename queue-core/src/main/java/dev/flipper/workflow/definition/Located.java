package dev.flipper.workflow.definition;

import dev.flipper.yaml.RawNode.Where;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a builder's values were written, for messages: the parser records the line of each key it
 * sets, a Java caller records nothing (then messages carry no location). Also the keys whose values
 * the parser has already reported as malformed, so that the validator does not report them a second
 * time as missing. Package-private; not thread-safe (like the builders that hold it).
 */
final class Located {
  /**
   * The key under which the builder itself (the workflow, a job's name, the schedule) is located.
   */
  static final String SELF = "";

  private final Map<String, Where> where = new HashMap<>();
  private final Set<String> broken = new HashSet<>();

  void put(String key, Where at) {
    where.put(key, at);
  }

  /** Where {@code key} was written; else where the builder itself was; else nowhere. */
  Where at(String key) {
    Where at = where.get(key);
    if (at != null) {
      return at;
    }
    return where.getOrDefault(SELF, Where.NOWHERE);
  }

  /** Whether the parser saw {@code key}. */
  boolean has(String key) {
    return where.containsKey(key);
  }

  void markBroken(String key) {
    broken.add(key);
  }

  boolean isBroken(String key) {
    return broken.contains(key);
  }
}
