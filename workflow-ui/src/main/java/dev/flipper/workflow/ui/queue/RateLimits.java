package dev.flipper.workflow.ui.queue;

import java.util.Map;

/**
 * Where the dashboard reads the queues' dequeue rate limits. They live in each queue server's own
 * {@code queue.rateLimitFile} (PinLater's per-host file; Thrift does not expose them), so the UI
 * can show them only when it can read that file too: the launcher hands it the file of its own
 * config. Implementations are thread-safe.
 */
public interface RateLimits {
  /** No file: the pages say where the limits live instead. */
  RateLimits NONE =
      new RateLimits() {
        @Override
        public Map<String, Double> current() {
          return Map.of();
        }

        @Override
        public String describe() {
          return "Dequeue rate limits are set per server in its queue.rateLimitFile, which this UI does not read "
              + "(its config has none) and Thrift does not expose.";
        }
      };

  /** Queue name to jobs per second for the whole cluster; queues not listed are not limited. */
  Map<String, Double> current();

  /** Where the limits come from (or why none are shown), for the pages. */
  String describe();
}
