package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workflow web UI as a daemon that the launcher starts and stops. For now it only reports ready between
 * {@link #start()} and {@link #close()}; later issues add serving the web UI on {@code port}. Thread-safe;
 * {@link #close()} is idempotent and finishes or hands back in-flight work before returning.
 */
public final class UiDaemon implements AutoCloseable {
  /**
   * Settings of the UI.
   *
   * @param port the web UI port, served once the UI lands; 0 = any free port
   */
  public record Config(int port) {}

  private enum State {
    NEW,
    RUNNING,
    CLOSED
  }

  private static final Logger log = LoggerFactory.getLogger(UiDaemon.class);

  private final Config config;
  private final MetricRegistry metrics;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

  public UiDaemon(Config config, MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public Config config() {
    return config;
  }

  /** Starts the daemon; may be called once. */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.RUNNING)) {
      throw new IllegalStateException("ui daemon cannot start: it is " + state.get());
    }
    metrics.gauge("ui.running", () -> () -> state.get() == State.RUNNING ? 1 : 0);
    log.debug("ui daemon started");
  }

  /** True between a successful {@link #start()} and {@link #close()}. */
  public boolean isReady() {
    return state.get() == State.RUNNING;
  }

  @Override
  public void close() {
    if (state.getAndSet(State.CLOSED) == State.RUNNING) {
      log.debug("ui daemon stopped");
    }
  }
}
