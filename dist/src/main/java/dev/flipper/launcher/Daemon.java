package dev.flipper.launcher;

import dev.flipper.config.FlipperConfig;
import java.util.List;
import java.util.Map;

/**
 * What the launcher runs for one mode: start, report readiness per component, stop gracefully. Thread-safe;
 * {@link #close()} is idempotent, finishes or hands back in-flight work, and never throws.
 */
public interface Daemon extends AutoCloseable {

  /** Starts every component; returns when the daemon is ready or throws why it cannot start. */
  void start() throws Exception;

  /** Each component's readiness, e.g. {@code {store=true, monitor=true}}; ready when all are true. */
  Map<String, Boolean> readiness();

  /** Where the daemon serves besides its admin port, e.g. {@code thrift 0.0.0.0:9010}; printed when ready. */
  default List<String> endpoints() {
    return List.of();
  }

  /**
   * Applies a changed config file to the running daemon: what can change at run time does (for example the
   * storage shards), the rest waits for a restart. Called on the config watcher's thread; must not throw.
   */
  default void reconfigure(FlipperConfig config) {}

  @Override
  void close();
}
