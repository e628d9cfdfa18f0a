package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import java.util.Map;
import java.util.Objects;

/**
 * The workflow web UI as a daemon. For now it only reports ready between {@link #start()} and
 * {@link #close()}; later issues add serving the web UI on {@code bindAddress:port}. Thread-safe;
 * {@link #close()} is idempotent.
 */
public final class UiDaemon implements Daemon<UiDaemon.Config> {
  /**
   * Settings of the UI (the {@code ui} section of the launcher's config binds into it).
   *
   * @param bindAddress the address the web UI will listen on
   * @param port the web UI port, served once the UI lands; 0 = any free port
   */
  public record Config(String bindAddress, int port) {}

  private final Config config;
  private final RunState state = new RunState("ui daemon");

  public UiDaemon(Config config, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    metrics.gauge("ui.running", () -> () -> state.isRunning() ? 1 : 0);
  }

  public Config config() {
    return config;
  }

  @Override
  public void start() {
    state.start();
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("ui", state.isRunning());
  }

  @Override
  public void close() {
    state.close();
  }
}
