package dev.flipper.workflow.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The back-off after failed sign-ins, on a clock the test moves. */
class SignInThrottleTest {
  private final MovableClock clock = new MovableClock();
  private final SignInThrottle throttle = new SignInThrottle(clock);

  @Test
  void waitDoublesAfterFiveFailuresUpToTheMaximumAndASuccessClearsIt() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES - 1; i++) {
      throttle.failed("alice", "10.0.0.1");
      assertThat(throttle.wait("alice", "10.0.0.1")).isEmpty();
    }
    throttle.failed("alice", "10.0.0.1");
    assertThat(throttle.wait("alice", "10.0.0.2")).hasValue(Duration.ofSeconds(1));
    assertThat(throttle.wait("bob", "10.0.0.1")).hasValue(Duration.ofSeconds(1));
    assertThat(throttle.wait("bob", "10.0.0.2")).isEmpty();

    Duration expected = Duration.ofSeconds(1);
    for (int i = 0; i < 12; i++) {
      clock.now = clock.now.plus(expected);
      assertThat(throttle.wait("alice", "10.0.0.1")).isEmpty();
      throttle.failed("alice", "10.0.0.1");
      expected = expected.multipliedBy(2);
      if (expected.compareTo(SignInThrottle.MAX_WAIT) > 0) {
        expected = SignInThrottle.MAX_WAIT;
      }
      assertThat(throttle.wait("alice", "10.0.0.1")).hasValue(expected);
    }

    clock.now = clock.now.plus(expected);
    throttle.succeeded("alice", "10.0.0.1");
    throttle.failed("alice", "10.0.0.1");
    assertThat(throttle.wait("alice", "10.0.0.1")).as("counting starts afresh").isEmpty();
  }

  @Test
  void failuresLongAgoAreForgotten() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES; i++) {
      throttle.failed("alice", "10.0.0.1");
    }
    clock.now = clock.now.plus(SignInThrottle.FORGET_AFTER);
    throttle.failed("alice", "10.0.0.1");

    assertThat(throttle.wait("alice", "10.0.0.1")).isEmpty();
  }

  private static final class MovableClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
