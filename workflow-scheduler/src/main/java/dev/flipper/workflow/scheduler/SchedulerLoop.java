package dev.flipper.workflow.scheduler;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ScheduleRunner} on its own thread: a pass, whose claim waits in the master until
 * the next schedule is due or a schedule is written (an apply), never a fixed minute-long poll.
 * Thread-safe.
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

  /**
   * Ends a local sleep (after a failed pass, or against a master that does not wait) at once. A
   * pass waiting in the master needs no wake-up: writing a claimable schedule ends its wait.
   */
  public void wake() {
    synchronized (lock) {
      woken = true;
      lock.notifyAll();
    }
  }

  private void loop() {
    Instant next = clock.instant();
    while (!closed) {
      Instant began = clock.instant();
      Duration wait = Duration.between(began, next);
      wait = wait.isNegative() ? Duration.ZERO : wait;
      try {
        ScheduleRunner.Pass pass = runner.pass(wait);
        next = pass.next();
        if (pass.claimed() == 0
            && Duration.between(began, clock.instant()).compareTo(wait.dividedBy(2)) < 0) {
          // The master answered at once although it could wait (shutting down, or a Pinball
          // master): sleep
          // here instead of asking again without pause.
          sleepUntil(next);
        }
      } catch (RuntimeException e) {
        log.warn("scheduler pass failed; trying again in {}", AFTER_FAILURE, e);
        next = clock.instant().plus(AFTER_FAILURE);
        sleepUntil(next);
      }
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

  /**
   * Asks the loop to stop after its pass in progress, without waiting for it (see {@link
   * #close()}).
   */
  public void stopSoon() {
    closed = true;
    wake();
  }

  /**
   * Stops after the pass in progress (a waiting claim ends within the runner's {@code maxWait}; it
   * is not interrupted, since an interrupt would close an in-process H2 store); a claimed schedule
   * not yet written is left to its lease.
   */
  @Override
  public void close() {
    stopSoon();
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
