package dev.flipper.queue.spi;

import java.util.Map;

/**
 * What one claim time-out pass did, per queue: jobs sent back to PENDING and jobs that became
 * FAILED.
 */
public record MonitorCounts(Map<String, Integer> retried, Map<String, Integer> failed) {
  public static final MonitorCounts NONE = new MonitorCounts(Map.of(), Map.of());

  public MonitorCounts {
    retried = Map.copyOf(retried);
    failed = Map.copyOf(failed);
  }

  public int total() {
    return retried.values().stream().mapToInt(Integer::intValue).sum()
        + failed.values().stream().mapToInt(Integer::intValue).sum();
  }
}
