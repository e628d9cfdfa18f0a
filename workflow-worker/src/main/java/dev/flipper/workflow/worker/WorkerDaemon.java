package dev.flipper.workflow.worker;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import java.util.Map;
import java.util.Objects;

/**
 * The workflow workers as a daemon. For now it only reports ready between {@link #start()} and
 * {@link #close()}; later issues add claiming, running and retrying up to {@code count} jobs at a time.
 * Thread-safe; {@link #close()} is idempotent.
 */
public final class WorkerDaemon implements Daemon<WorkerDaemon.Config> {
  /**
   * Settings of the workers (the {@code workers} section of the launcher's config binds into it).
   *
   * @param count how many jobs run at the same time
   */
  public record Config(int count) {}

  private final Config config;
  private final RunState state = new RunState("workers daemon");

  public WorkerDaemon(Config config, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    metrics.gauge("workers.running", () -> () -> state.isRunning() ? 1 : 0);
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
    return Map.of("workers", state.isRunning());
  }

  @Override
  public void close() {
    state.close();
  }
}
