package dev.flipper.token;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The waiting queryAndOwn calls of one {@link TokenService}, by name prefix, and the signals that
 * wake them. Thread-safe.
 *
 * <p>No lost wake-ups: a call registers before its first claim attempt and a write signals after
 * its commit. So a change either committed before an attempt read the store (and the attempt sees
 * it), or its signal finds the waiter registered. A signal is kept until the waiter's next {@link
 * Waiter#await} consumes it, so one that arrives during an attempt makes the next await return at
 * once.
 */
final class ClaimWaiters {
  /**
   * Waiters grouped by prefix: workers of one pool share one, so a change is compared with few
   * prefixes.
   */
  private final Map<String, Set<Waiter>> byPrefix = new ConcurrentHashMap<>();

  private final AtomicInteger count = new AtomicInteger();

  Waiter register(String prefix) {
    Waiter waiter = new Waiter(prefix);
    count.incrementAndGet(); // first: changed() skips its scan only when nobody can be registered
    // Added inside compute(): a concurrent remove() of the last waiter cannot drop the set under
    // us.
    byPrefix.compute(
        prefix,
        (p, set) -> {
          Set<Waiter> waiters = set == null ? ConcurrentHashMap.newKeySet() : set;
          waiters.add(waiter);
          return waiters;
        });
    return waiter;
  }

  void remove(Waiter waiter) {
    byPrefix.computeIfPresent(
        waiter.prefix,
        (p, set) -> {
          set.remove(waiter);
          return set.isEmpty() ? null : set;
        });
    count.decrementAndGet();
  }

  int count() {
    return count.get();
  }

  /**
   * Tokens with these names may have become claimable: wakes every waiter whose prefix starts one
   * of them.
   */
  void changed(Collection<String> names) {
    if (names.isEmpty() || count.get() == 0) {
      return;
    }
    for (Map.Entry<String, Set<Waiter>> entry : byPrefix.entrySet()) {
      String prefix = entry.getKey();
      if (names.stream().anyMatch(name -> name.startsWith(prefix))) {
        entry.getValue().forEach(Waiter::signal);
      }
    }
  }

  /**
   * Ends every current wait: each returns what it has (nothing) after its claim attempt in
   * progress, if any.
   */
  void endAll() {
    byPrefix.values().forEach(set -> set.forEach(Waiter::end));
  }

  /** One waiting call. */
  static final class Waiter {
    final String prefix;
    private boolean signalled;
    private boolean ended;

    private Waiter(String prefix) {
      this.prefix = prefix;
    }

    synchronized void signal() {
      signalled = true;
      notifyAll();
    }

    synchronized void end() {
      ended = true;
      notifyAll();
    }

    /**
     * Returns when signalled (consuming the signal), ended, or after {@code nanos}, whichever comes
     * first. False if the wait was ended.
     */
    synchronized boolean await(long nanos) throws InterruptedException {
      long deadline = System.nanoTime() + nanos;
      while (!signalled && !ended) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      signalled = false;
      return !ended;
    }
  }
}
