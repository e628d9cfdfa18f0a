package dev.flipper.workflow.worker.exec;

import dev.flipper.text.DurationText;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Runs workflow jobs as shell commands: the entry point of this package. One per worker process;
 * thread-safe. Each job attempt is a {@link ShellExecution} made by {@link #prepare}, run by the
 * engine's thread with {@link ShellExecution#run()} and abortable from any thread.
 *
 * <pre>{@code
 * ShellExecutor executor = ShellExecutor.builder(new LogFiles(logDir)).killGrace(Duration.ofSeconds(5)).build();
 * ShellExecution execution = executor.prepare(params, listener);
 * ExecutionResult result = execution.run();   // execution.abort("lease lost") from another thread kills it
 * }</pre>
 */
public final class ShellExecutor implements AutoCloseable {
  private final LogFiles logFiles;
  private final TaskTimer timer;
  private final ScheduledExecutorService ownedTimer;
  private final Clock clock;
  private final Duration killGrace;
  private final Duration drainTimeout;
  private final Duration cleanupTimeout;
  private final Map<String, String> baseEnvironment;
  private final long maxLogBytes;

  private ShellExecutor(Builder b) {
    this.logFiles = b.logFiles;
    if (b.timer != null) {
      this.timer = b.timer;
      this.ownedTimer = null;
    } else {
      ScheduledThreadPoolExecutor pool =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "flipper-job-timer");
                t.setDaemon(true);
                return t;
              });
      pool.setRemoveOnCancelPolicy(
          true); // cancelled time-outs of finished jobs must not pile up for hours
      this.ownedTimer = pool;
      this.timer = TaskTimer.of(pool);
    }
    this.clock = b.clock;
    this.killGrace = b.killGrace;
    this.drainTimeout = b.drainTimeout;
    this.cleanupTimeout = b.cleanupTimeout;
    this.baseEnvironment = Map.copyOf(b.baseEnvironment);
    this.maxLogBytes = b.maxLogBytes;
  }

  public static Builder builder(LogFiles logFiles) {
    return new Builder(logFiles);
  }

  /**
   * Prepares one attempt; nothing runs until {@link ShellExecution#run()}. An {@link
   * ShellExecution#abort} before that prevents the run.
   */
  public ShellExecution prepare(ExecutionParams params, ExecutionListener listener) {
    return new ShellExecution(
        this,
        Objects.requireNonNull(params, "params"),
        Objects.requireNonNull(listener, "listener"));
  }

  public LogFiles logFiles() {
    return logFiles;
  }

  TaskTimer timer() {
    return timer;
  }

  Clock clock() {
    return clock;
  }

  Duration killGrace() {
    return killGrace;
  }

  Duration drainTimeout() {
    return drainTimeout;
  }

  Duration cleanupTimeout() {
    return cleanupTimeout;
  }

  Map<String, String> baseEnvironment() {
    return baseEnvironment;
  }

  long maxLogBytes() {
    return maxLogBytes;
  }

  /**
   * Stops the timer thread if this executor made it. Does not abort running executions: the engine
   * does.
   */
  @Override
  public void close() {
    if (ownedTimer != null) {
      ownedTimer.shutdownNow();
    }
  }

  /** Settings of a {@link ShellExecutor}; not thread-safe. */
  public static final class Builder {
    private final LogFiles logFiles;
    private TaskTimer timer;
    private Clock clock = Clock.systemUTC();
    private Duration killGrace = Duration.ofSeconds(5);
    private Duration drainTimeout = Duration.ofSeconds(2);
    private Duration cleanupTimeout = Duration.ofMinutes(10);
    private Map<String, String> baseEnvironment = System.getenv();
    private long maxLogBytes;

    private Builder(LogFiles logFiles) {
      this.logFiles = Objects.requireNonNull(logFiles, "logFiles");
    }

    /** Runs the time-outs; default: a daemon thread of this executor's own. */
    public Builder timer(TaskTimer timer) {
      this.timer = Objects.requireNonNull(timer, "timer");
      return this;
    }

    /** Gives the start and end times of executions; default: the system clock (UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How long an aborted job's processes get between SIGTERM and SIGKILL, to stop cleanly. Default
     * 5 s. Zero sends SIGKILL at once, as the original did. The execution's exit code is then
     * {@code -15} if the shell died of the SIGTERM, {@code -9} if it needed the SIGKILL.
     */
    public Builder killGrace(Duration killGrace) {
      this.killGrace = requireNotNegative(killGrace, "killGrace");
      return this;
    }

    /**
     * How long to wait, after the job's shell has exited, for the end of its output. A background
     * process the job left running keeps the output pipes open; after this time we stop logging its
     * output (it is still read, so it never blocks on a full pipe) and finish the execution.
     * Default 2 s; after an abort the kill grace is added.
     */
    public Builder drainTimeout(Duration drainTimeout) {
      this.drainTimeout = requireNotNegative(drainTimeout, "drainTimeout");
      return this;
    }

    /** Abort time-out of a cleanup command; default 10 min. */
    public Builder cleanupTimeout(Duration cleanupTimeout) {
      this.cleanupTimeout = requireNotNegative(cleanupTimeout, "cleanupTimeout");
      if (cleanupTimeout.isZero()) {
        throw new IllegalArgumentException(
            "cleanupTimeout must be positive, was " + DurationText.format(cleanupTimeout));
      }
      return this;
    }

    /**
     * The environment every command starts from; default: the worker's own ({@link
     * System#getenv()}).
     */
    public Builder baseEnvironment(Map<String, String> baseEnvironment) {
      this.baseEnvironment = Objects.requireNonNull(baseEnvironment, "baseEnvironment");
      return this;
    }

    /**
     * The most bytes kept of each log (stdout, stderr) of one attempt; 0 (the default) = all.
     * Beyond it the first and last halves are kept with a {@link LogCutMarker} line between them
     * (see {@link CappedFile}); the job itself is never held up.
     */
    public Builder maxLogBytes(long maxLogBytes) {
      if (maxLogBytes < 0) {
        throw new IllegalArgumentException(
            "maxLogBytes must be 0 (no cap) or positive, was " + maxLogBytes);
      }
      this.maxLogBytes = maxLogBytes;
      return this;
    }

    public ShellExecutor build() {
      return new ShellExecutor(this);
    }

    private static Duration requireNotNegative(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative()) {
        throw new IllegalArgumentException(
            name + " must not be negative, was " + DurationText.format(d));
      }
      return d;
    }
  }
}
