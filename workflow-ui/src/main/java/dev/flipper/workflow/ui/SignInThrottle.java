package dev.flipper.workflow.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing: after {@link #FREE_FAILURES} failed sign-ins for one user name, or
 * from one client address, the next attempt for it must wait {@link #FIRST_WAIT}, doubling with
 * each further failure up to {@link #MAX_WAIT}. A success clears the name and the address. A name
 * or address quiet for {@link #FORGET_AFTER} starts afresh (and is dropped, so the map stays
 * small). Time comes from the clock. Thread-safe.
 */
final class SignInThrottle {
  static final int FREE_FAILURES = 5;
  static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  static final Duration MAX_WAIT = Duration.ofMinutes(5);
  static final Duration FORGET_AFTER = Duration.ofMinutes(30);

  private record Failures(int count, Instant last, Instant blockedUntil) {}

  private final Clock clock;
  private final Map<String, Failures> failures = new ConcurrentHashMap<>();

  SignInThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How long the name or the address must still wait; empty = it may try now. */
  Optional<Duration> wait(String name, String address) {
    Instant now = clock.instant();
    Instant until =
        latest(blockedUntil(key("name", name), now), blockedUntil(key("address", address), now));
    return until.isAfter(now) ? Optional.of(Duration.between(now, until)) : Optional.empty();
  }

  void failed(String name, String address) {
    Instant now = clock.instant();
    failures.values().removeIf(f -> forgotten(f, now));
    failures.compute(key("name", name), (k, f) -> next(f, now));
    failures.compute(key("address", address), (k, f) -> next(f, now));
  }

  void succeeded(String name, String address) {
    failures.remove(key("name", name));
    failures.remove(key("address", address));
  }

  private static Failures next(Failures before, Instant now) {
    int count = before == null || forgotten(before, now) ? 1 : before.count() + 1;
    Instant blockedUntil = now;
    if (count >= FREE_FAILURES) {
      int doublings = Math.min(count - FREE_FAILURES, 20);
      Duration wait = FIRST_WAIT.multipliedBy(1L << doublings);
      blockedUntil = now.plus(wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait);
    }
    return new Failures(count, now, blockedUntil);
  }

  private Instant blockedUntil(String key, Instant now) {
    Failures f = failures.get(key);
    return f == null || forgotten(f, now) ? now : f.blockedUntil();
  }

  private static boolean forgotten(Failures f, Instant now) {
    return !now.isBefore(f.last().plus(FORGET_AFTER)) && !now.isBefore(f.blockedUntil());
  }

  private static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static String key(String kind, String value) {
    return kind + ":" + (value == null ? "" : value);
  }
}
