package dev.flipper.queue.server.internal;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import java.util.concurrent.Semaphore;

/**
 * The slots for body-filtered calls (a count, scan or deleteJobs with a body regex): at most {@code
 * size} wait for or hold a worker thread at once. A regex search may backtrack until its time
 * budget ends, so without a cap 40 of them took all 32 workers and every other call (even
 * getQueueNames) waited seconds behind them; one beyond the cap is refused at once, nothing done.
 * Thread-safe.
 */
final class FilterSlots {
  private final int size;
  private final Semaphore free;

  FilterSlots(int size) {
    this.size = size;
    this.free = new Semaphore(size);
  }

  /** The slots a call with this body regex needs: these, or null without a regex. */
  FilterSlots forRegex(String bodyRegex) {
    return bodyRegex == null || bodyRegex.isEmpty() ? null : this;
  }

  /** Takes a slot, or false when all are taken. */
  boolean tryTake() {
    return free.tryAcquire();
  }

  void release() {
    free.release();
  }

  /** Why a call found no slot. */
  QueueException refusal(String method) {
    return new QueueException(
        ErrorCode.UNKNOWN,
        method
            + " refused: "
            + size
            + " body-filtered calls already run on this queue server (queue.maxConcurrentBodyFilters); "
            + "nothing was done, retry later or call without a body regex");
  }
}
