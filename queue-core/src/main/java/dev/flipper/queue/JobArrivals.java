package dev.flipper.queue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * In-process waiting dequeues (a {@link DequeueParams#maxWait()}): the caller's thread waits until
 * a job arrives on this service or the next re-check is due. Enqueues through this service wake the
 * waiters of their queue at once; jobs that arrive another way (another server over the same
 * storage, a delayed job coming due) are found by a re-check every 100 ms doubling to 1 s.
 * Thread-safe.
 */
final class JobArrivals {
  private static final long FIRST_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long MAX_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Arrivals signalled per queue; a waiter wakes when its queue's count moves. */
  private final Map<String, Long> arrivals = new HashMap<>();

  /** Jobs may have become ready in {@code queue}: wake its waiters. */
  synchronized void signal(String queue) {
    arrivals.merge(queue, 1L, Long::sum);
    notifyAll();
  }

  /**
   * Calls {@code attempt} until it returns jobs or {@code waitNanos} have passed (the last, empty,
   * answer is returned then). An interrupt ends the wait with an empty answer and keeps the
   * thread's interrupt flag.
   */
  <T> List<T> await(String queue, long waitNanos, Supplier<List<T>> attempt) {
    long deadline = System.nanoTime() + waitNanos;
    long recheck = FIRST_RECHECK_NANOS;
    while (true) {
      long seen = count(queue);
      List<T> found = attempt.get();
      long left = deadline - System.nanoTime();
      if (!found.isEmpty() || left <= 0) {
        return found;
      }
      if (!awaitArrival(queue, seen, Math.min(recheck, left))) {
        return List.of();
      }
      recheck = Math.min(recheck * 2, MAX_RECHECK_NANOS);
    }
  }

  private synchronized long count(String queue) {
    return arrivals.getOrDefault(queue, 0L);
  }

  /**
   * Waits until {@code queue} has an arrival after {@code seen} or the time is up; false if
   * interrupted.
   */
  private synchronized boolean awaitArrival(String queue, long seen, long nanos) {
    long until = System.nanoTime() + nanos;
    long left = nanos;
    while (count(queue) == seen && left > 0) {
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      left = until - System.nanoTime();
    }
    return true;
  }
}
