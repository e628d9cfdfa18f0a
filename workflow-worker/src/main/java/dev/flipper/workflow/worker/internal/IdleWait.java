package dev.flipper.workflow.worker.internal;

import java.time.Duration;

/**
 * Where idle slots of one worker process wait for work, and how a slot that just changed the
 * master's state (a success that may have made several children runnable) wakes its idle siblings
 * at once. Thread-safe.
 */
public final class IdleWait {
  private final Object lock = new Object();
  private long wakeups;

  /** Returns after {@code max}, or earlier when {@link #wakeAll()} is called (or on interrupt). */
  public void await(Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    synchronized (lock) {
      long seen = wakeups;
      long left = max.toNanos();
      while (wakeups == seen && left > 0) {
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        left = deadline - System.nanoTime();
      }
    }
  }

  public void wakeAll() {
    synchronized (lock) {
      wakeups++;
      lock.notifyAll();
    }
  }
}
