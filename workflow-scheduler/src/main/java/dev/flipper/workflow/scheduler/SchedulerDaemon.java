package dev.flipper.workflow.scheduler;

import com.codahale.metrics.MetricRegistry;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow scheduler as a daemon that the launcher starts and stops. For now it only reports ready between
 * {@link #start()} and {@link #close()}; later issues add starting workflows on their schedules with overrun
 * policies. Thread-safe; {@link #close()} is idempotent and finishes or hands back in-flight work before
 * returning.
 */
public final class SchedulerDaemon implements AutoCloseable {

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private static final Logger log = LoggerFactory.getLogger(SchedulerDaemon.class);

  private final MetricRegistry metrics;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

  public SchedulerDaemon(MetricRegistry metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Starts the daemon; may be called once. */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("scheduler daemon cannot start: it is " + state.get());
    }
    metrics.gauge("scheduler.running", () -> () -> state.get() == State.RUNNING ? 1 : 0);
    log.debug("scheduler daemon started");
  }

  /** True between a successful {@link #start()} and {@link #close()}. */
  public boolean isReady() {
    return state.get() == State.RUNNING;
  }

  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.RUNNING) {
      log.debug("scheduler daemon stopped");
    }
  }
}
