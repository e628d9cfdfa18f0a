package dev.flipper.workflow.worker.exec;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects an execution's properties from the {@code FLIPPER:key=value} (or {@code
 * PINBALL:key=value}) lines of its stdout and stderr. Each key keeps its distinct values in the
 * order they first appeared. The value is everything after the first {@code =} (without the line's
 * end); a line without {@code =}, or with an empty key, is not a property. Thread-safe: both output
 * streams feed one collector.
 */
final class PropertyCollector {
  static final String FLIPPER_PREFIX = "FLIPPER:";
  static final String PINBALL_PREFIX = "PINBALL:";

  private static final Logger log = LoggerFactory.getLogger(PropertyCollector.class);

  private final Map<String, Set<String>> values = new LinkedHashMap<>();

  /**
   * Offers the line that starts at {@code buf[off]} (at most {@code len} bytes, which may end with
   * the line's {@code \n}).
   *
   * @return true if the line added a value that was not there yet
   */
  boolean offerLine(byte[] buf, int off, int len) {
    if (!startsWith(buf, off, len, FLIPPER_PREFIX) && !startsWith(buf, off, len, PINBALL_PREFIX)) {
      return false;
    }
    int end = off + len;
    if (end > off && buf[end - 1] == '\n') {
      end--;
    }
    if (end > off && buf[end - 1] == '\r') {
      end--;
    }
    int prefix = FLIPPER_PREFIX.length(); // both prefixes have the same length
    String rest = new String(buf, off + prefix, end - off - prefix, StandardCharsets.UTF_8);
    int eq = rest.indexOf('=');
    if (eq < 0) {
      return false;
    }
    if (eq == 0) {
      log.warn("ignoring a property line with an empty key: {}", rest);
      return false;
    }
    return add(rest.substring(0, eq), rest.substring(eq + 1));
  }

  synchronized boolean add(String key, String value) {
    return values.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(value);
  }

  /** An immutable copy: key → distinct values in order of appearance. */
  synchronized Map<String, List<String>> snapshot() {
    Map<String, List<String>> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    return Collections.unmodifiableMap(copy);
  }

  private static boolean startsWith(byte[] buf, int off, int len, String prefix) {
    if (len < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (buf[off + i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
