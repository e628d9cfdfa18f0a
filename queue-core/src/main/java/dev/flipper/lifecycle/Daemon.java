package dev.flipper.lifecycle;

import java.util.List;
import java.util.Map;

/**
 * One daemon's lifecycle, the same for every Flipper daemon (queue, master, scheduler, workers,
 * UI): start, report readiness per component, apply changed settings, stop gracefully. The launcher
 * runs any of them the same way. Implementations are thread-safe; {@link #close()} is idempotent,
 * finishes or hands back in-flight work, and never throws.
 *
 * @param <S> the settings {@link #reconfigure} takes; a daemon that changes nothing at run time
 *     keeps the default no-op
 */
public interface Daemon<S> extends AutoCloseable {

  /**
   * Starts every component; returns when the daemon is ready or throws why it cannot start. May be
   * called once.
   */
  void start() throws Exception;

  /**
   * Each component's readiness, e.g. {@code {store=true, monitor=true}}; ready when all are true.
   */
  Map<String, Boolean> readiness();

  /** True when every component is ready (and there is at least one). */
  default boolean isReady() {
    Map<String, Boolean> components = readiness();
    return !components.isEmpty() && !components.containsValue(false);
  }

  /**
   * Where the daemon serves besides its admin port, e.g. {@code thrift port 9010}; printed when
   * ready.
   */
  default List<String> endpoints() {
    return List.of();
  }

  /**
   * Applies changed settings to the running daemon: what can change at run time does (for example
   * the storage shards), the rest waits for a restart. Called on the config watcher's thread; must
   * not throw.
   */
  default void reconfigure(S settings) {}

  /** Stops gracefully; idempotent; never throws. */
  @Override
  void close();
}
