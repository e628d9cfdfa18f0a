package dev.flipper.queue.server.internal;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.QueueException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Long-poll dequeues: a dequeue that found nothing waits for jobs, up to the wait it asked for
 * (Flipper's clients) or else the server's {@code longPollTimeout} (PinLater's clients, default 0:
 * answer at once). No thread is held while waiting, only the call's connection: re-checks are
 * scheduled with back-off (100 ms doubling to 1 s) and run on the worker pool, and an enqueue on
 * this server to the same queue triggers an immediate re-check. Enqueues through other servers are
 * seen at the next scheduled re-check. Thread-safe.
 */
public final class LongPoll {
  private static final long FIRST_BACKOFF_MILLIS = 100;
  private static final long MAX_BACKOFF_MILLIS = 1000;

  private final Duration defaultWait;
  private final Duration longestHold;
  private final ScheduledExecutorService timer;
  private final Executor workers;
  private final ConcurrentHashMap<String, Set<Waiter<?>>> waiters = new ConcurrentHashMap<>();
  private volatile boolean released;

  /**
   * @param defaultWait the wait of a dequeue that asks for none (PinLater's clients)
   * @param longestHold the longest this server holds a dequeue that asked for a wait (a longer
   *     asked wait is shortened to it)
   */
  public LongPoll(
      Duration defaultWait,
      Duration longestHold,
      ScheduledExecutorService timer,
      Executor workers) {
    this.defaultWait = defaultWait;
    this.longestHold = longestHold;
    this.timer = timer;
    this.workers = workers;
  }

  /**
   * How long an empty dequeue of {@code queue} waits: the server's default when it asked for none
   * (null), else what it asked for, at most the longest hold. A wait outside 0..{@link
   * DequeueParams#MAX_WAIT} is refused.
   */
  Duration waitFor(String queue, Duration asked) {
    if (asked == null) {
      return defaultWait;
    }
    if (asked.isNegative() || asked.compareTo(DequeueParams.MAX_WAIT) > 0) {
      throw QueueException.invalid(
          "dequeue wait of queue "
              + queue
              + " must be 0.."
              + DequeueParams.MAX_WAIT.toMillis()
              + " ms, was "
              + asked.toMillis()
              + " ms");
    }
    return asked.compareTo(longestHold) < 0 ? asked : longestHold;
  }

  /**
   * Calls {@code attempt} until it returns a non-empty list or {@code wait} has passed (then the
   * result is empty). Attempts of one wait never overlap, so two attempts can never both claim
   * jobs.
   */
  <T> CompletableFuture<List<T>> await(String queue, Duration wait, Supplier<List<T>> attempt) {
    Waiter<T> waiter = new Waiter<>(queue, attempt, System.nanoTime() + wait.toNanos());
    waiters.computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(waiter);
    waiter.result.whenComplete((jobs, error) -> remove(waiter));
    if (released) {
      waiter.release();
    } else {
      waiter.schedule(FIRST_BACKOFF_MILLIS);
    }
    return waiter.result;
  }

  /** Jobs were enqueued to {@code queue} on this server: re-check its waiters now. */
  void signal(String queue) {
    Set<Waiter<?>> set = waiters.get(queue);
    if (set != null) {
      for (Waiter<?> waiter : set) {
        waiter.dispatch();
      }
    }
  }

  /** Shutting down: every current and future wait ends at once with an empty result. */
  public void releaseAll() {
    released = true;
    for (Set<Waiter<?>> set : waiters.values()) {
      for (Waiter<?> waiter : set) {
        waiter.release();
      }
    }
  }

  public int waiting() {
    int count = 0;
    for (Set<Waiter<?>> set : waiters.values()) {
      count += set.size();
    }
    return count;
  }

  private void remove(Waiter<?> waiter) {
    waiters.computeIfPresent(
        waiter.queue,
        (q, set) -> {
          set.remove(waiter);
          return set.isEmpty() ? null : set;
        });
  }

  private final class Waiter<T> {
    final String queue;
    final Supplier<List<T>> attempt;
    final CompletableFuture<List<T>> result = new CompletableFuture<>();
    final AtomicBoolean checking = new AtomicBoolean();
    volatile long deadlineNanos;
    volatile boolean again;
    volatile boolean stop;
    long backoffMillis = FIRST_BACKOFF_MILLIS;

    Waiter(String queue, Supplier<List<T>> attempt, long deadlineNanos) {
      this.queue = queue;
      this.attempt = attempt;
      this.deadlineNanos = deadlineNanos;
    }

    void schedule(long delayMillis) {
      try {
        timer.schedule(this::dispatch, delayMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        result.complete(List.of());
      }
    }

    void dispatch() {
      if (result.isDone()) {
        return;
      }
      try {
        workers.execute(this::check);
      } catch (RejectedExecutionException e) {
        result.complete(List.of());
      }
    }

    void release() {
      stop = true;
      dispatch();
    }

    private void check() {
      if (result.isDone()) {
        return;
      }
      if (!checking.compareAndSet(false, true)) {
        again = true; // the running check repeats once it is done, so this signal is not lost
        return;
      }
      try {
        again = false;
        if (stop) {
          result.complete(List.of());
          return;
        }
        List<T> found = attempt.get();
        long leftNanos = deadlineNanos - System.nanoTime();
        if (!found.isEmpty() || leftNanos <= 0) {
          result.complete(found);
          return;
        }
        if (!again) {
          schedule(Math.min(backoffMillis, TimeUnit.NANOSECONDS.toMillis(leftNanos) + 1));
          backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
        }
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      } finally {
        checking.set(false);
      }
      if (again || stop) {
        dispatch();
      }
    }
  }
}
