package dev.flipper.queue.worker;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many jobs a {@link QueueWorker} may claim now. Jobs claimed and not finished (waiting for a
 * slot or running) plus jobs asked for by dequeues in flight never exceed the slots plus the
 * prefetch that is safe: the waiting jobs, spread over the slots, must start within {@code
 * startWithinMillis} at the average run time measured so far. Until a job has finished nothing is
 * prefetched, since the run time is unknown (a job may run for hours). A dequeue asks for a full
 * batch while the slots are all busy, and for whatever fits as soon as a slot has nothing to run.
 * Thread-safe.
 */
final class ClaimBudget {
  /** Weight of the newest run time in the moving average. */
  private static final double NEW_SAMPLE_WEIGHT = 0.1;

  /**
   * A dequeue running longer than this plus twice the usual round trip is taken for a long poll.
   */
  private static final long LONG_POLL_MARGIN_NANOS = 2_000_000;

  private final int concurrency;
  private final int prefetch;
  private final int batchSize;
  private final long startWithinMillis;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private int claimed; // waiting for a slot or running
  private int askedFor; // limits of the dequeues in flight
  private double averageRunMillis = -1; // -1: no job finished yet
  private volatile double roundTripNanos;
  private volatile boolean queueLooksEmpty;

  ClaimBudget(int concurrency, int prefetch, int batchSize, long startWithinMillis) {
    this.concurrency = concurrency;
    this.prefetch = prefetch;
    this.batchSize = batchSize;
    this.startWithinMillis = startWithinMillis;
  }

  /**
   * Waits until a dequeue may be sent and reserves its limit: a full batch, or less as soon as a
   * slot would otherwise stay idle. Returns 0 once {@code stopping} is released (after {@link
   * #wakeAll()}).
   */
  int awaitClaimable(CountDownLatch stopping) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (stopping.getCount() > 0) {
        int room = room();
        if (mayClaim(room)) {
          int limit = Math.min(room, batchSize);
          askedFor += limit;
          signalIfClaimable(); // room for another dispatcher's dequeue too
          return limit;
        }
        changed.await();
      }
      return 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * A dequeue that asked for {@code asked} jobs returned {@code got} (0 if it failed) after {@code
   * tookNanos}.
   */
  void callEnded(int asked, int got, long tookNanos) {
    lock.lock();
    try {
      askedFor -= asked;
      claimed += got;
      if (got > 0) { // an empty answer may have been a long poll: not a round trip
        double rtt = roundTripNanos;
        roundTripNanos = rtt == 0 ? tookNanos : rtt + NEW_SAMPLE_WEIGHT * (tookNanos - rtt);
      }
      signalIfClaimable();
    } finally {
      lock.unlock();
    }
  }

  /**
   * A claimed job finished after running {@code runMillis}, or was never started ({@code runMillis}
   * < 0).
   */
  void jobDone(long runMillis) {
    lock.lock();
    try {
      claimed--;
      if (runMillis >= 0) {
        averageRunMillis =
            averageRunMillis < 0
                ? runMillis
                : averageRunMillis + NEW_SAMPLE_WEIGHT * (runMillis - averageRunMillis);
      }
      signalIfClaimable();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes every waiting dispatcher (closing). */
  void wakeAll() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void markEmpty(boolean empty) {
    queueLooksEmpty = empty;
  }

  /**
   * True after a dequeue found nothing, until one finds jobs: the extra dispatchers rest meanwhile.
   */
  boolean queueLooksEmpty() {
    return queueLooksEmpty;
  }

  /**
   * A dequeue in flight for longer than this is waiting for jobs (a long poll), not just
   * travelling.
   */
  long longPollAfterNanos() {
    return (long) (2 * roundTripNanos) + LONG_POLL_MARGIN_NANOS;
  }

  /** Jobs claimed and not finished plus jobs asked for by dequeues in flight. */
  int outstanding() {
    lock.lock();
    try {
      return claimed + askedFor;
    } finally {
      lock.unlock();
    }
  }

  /** Jobs that may still be asked for. Under the lock. */
  private int room() {
    return concurrency + safePrefetch() - (claimed + askedFor);
  }

  /** A full batch fits, or a slot would otherwise stay idle. Under the lock. */
  private boolean mayClaim(int room) {
    return room >= batchSize || (room >= 1 && claimed + askedFor < concurrency);
  }

  /**
   * Wakes one waiting dispatcher if it may claim now. Not every finished job does: waking the
   * dispatchers for each one, to find there is still no room for a batch, cost two thread wake-ups
   * per job.
   */
  private void signalIfClaimable() {
    if (mayClaim(room())) {
      changed.signal();
    }
  }

  /**
   * Jobs that may wait for a slot: each slot's share must start within the limit at the average run
   * time.
   */
  private int safePrefetch() {
    if (prefetch == 0 || averageRunMillis < 0) {
      return 0;
    }
    if (averageRunMillis < 1) {
      return prefetch;
    }
    return (int)
        Math.min(prefetch, Math.floor(concurrency * (startWithinMillis / averageRunMillis)));
  }
}
