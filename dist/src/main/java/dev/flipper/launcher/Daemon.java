package dev.flipper.launcher;

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

  @Override
  void close();
}
