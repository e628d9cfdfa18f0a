package dev.flipper.workflow.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ScheduleRunner} on its own thread: a pass, then sleep until the next schedule is due (or
 * {@link #wake()}, or the runner's longest sleep), never a fixed minute-long poll. Thread-safe.
 */
public final class SchedulerLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SchedulerLoop.class);
  /** After a failed pass (master unreachable, say), wait this long before the next. */
  private static final Duration AFTER_FAILURE = Duration.ofSeconds(1);

  private final ScheduleRunner runner;
  private final Clock clock;
  private final Thread thread;
  private final Object lock = new Object();
  private boolean woken;
  private volatile boolean closed;

  public SchedulerLoop(ScheduleRunner runner, Clock clock, String threadName) {
    this.runner = runner;
    this.clock = clock;
    this.thread = new Thread(this::loop, threadName);
    this.thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  /** Runs a pass now: call after writing a schedule in this process. */
  public void wake() {
    synchronized (lock) {
      woken = true;
      lock.notifyAll();
    }
  }

  private void loop() {
    while (!closed) {
      Instant next;
      try {
        next = runner.runOnce();
      } catch (RuntimeException e) {
        log.warn("scheduler pass failed; trying again in {}", AFTER_FAILURE, e);
        next = clock.instant().plus(AFTER_FAILURE);
      }
      sleepUntil(next);
    }
  }

  private void sleepUntil(Instant next) {
    synchronized (lock) {
      while (!closed && !woken) {
        long millis = Duration.between(clock.instant(), next).toMillis();
        if (millis <= 0) {
          break;
        }
        try {
          lock.wait(millis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          closed = true;
        }
      }
      woken = false;
    }
  }

  /** Stops after the pass in progress; a claimed schedule not yet written is left to its lease. */
  @Override
  public void close() {
    closed = true;
    wake();
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
