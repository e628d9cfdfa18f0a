package dev.flipper.workflow.worker;

import com.codahale.metrics.MetricRegistry;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow workers as a daemon that the launcher starts and stops. For now it only reports ready between
 * {@link #start()} and {@link #close()}; later issues add claiming, running and retrying up to {@code count}
 * jobs at a time. Thread-safe; {@link #close()} is idempotent and finishes or hands back in-flight work before
 * returning.
 */
public final class WorkerDaemon implements AutoCloseable {
  /**
   * Settings of the workers.
   *
   * @param count how many jobs run at the same time
   */
  public record Config(int count) {}

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private static final Logger log = LoggerFactory.getLogger(WorkerDaemon.class);

  private final Config config;
  private final MetricRegistry metrics;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

  public WorkerDaemon(Config config, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public Config config() {
    return config;
  }

  /** Starts the daemon; may be called once. */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("workers daemon cannot start: it is " + state.get());
    }
    metrics.gauge("workers.running", () -> () -> state.get() == State.RUNNING ? 1 : 0);
    log.debug("workers daemon started");
  }

  /** True between a successful {@link #start()} and {@link #close()}. */
  public boolean isReady() {
    return state.get() == State.RUNNING;
  }

  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.RUNNING) {
      log.debug("workers daemon stopped");
    }
  }
}
