package dev.flipper.workflow.scheduler;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.lifecycle.RunState;
import java.util.Map;

/**
 * The workflow scheduler as a daemon. For now it only reports ready between {@link #start()} and
 * {@link #close()}; later issues add starting workflows on their schedules with overrun policies.
 * Thread-safe; {@link #close()} is idempotent.
 */
public final class SchedulerDaemon implements Daemon<Void> {
  private final RunState state = new RunState("scheduler daemon");

  public SchedulerDaemon(MetricRegistry metrics) {
    metrics.gauge("scheduler.running", () -> () -> state.isRunning() ? 1 : 0);
  }

  @Override
  public void start() {
    state.start();
  }

  @Override
  public Map<String, Boolean> readiness() {
    return Map.of("scheduler", state.isRunning());
  }

  @Override
  public void close() {
    state.close();
  }
}
