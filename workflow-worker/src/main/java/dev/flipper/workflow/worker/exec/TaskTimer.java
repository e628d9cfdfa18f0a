package dev.flipper.workflow.worker.exec;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task once after a delay: the executions' warn and abort time-outs and the grace before a
 * SIGKILL. An interface so that tests can fire time-outs by hand instead of waiting.
 * Implementations are thread-safe.
 */
@FunctionalInterface
public interface TaskTimer {
  /** A scheduled task that can still be called off. */
  @FunctionalInterface
  interface Scheduled {
    /** Calls the task off if it has not started; does nothing otherwise. */
    void cancel();
  }

  Scheduled schedule(Duration delay, Runnable task);

  /** A timer on a scheduled executor that the caller owns (and shuts down). */
  static TaskTimer of(ScheduledExecutorService executor) {
    Objects.requireNonNull(executor, "executor");
    return (delay, task) -> {
      ScheduledFuture<?> f = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
      return () -> f.cancel(false);
    };
  }
}
