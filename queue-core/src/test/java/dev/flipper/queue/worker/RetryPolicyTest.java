package dev.flipper.queue.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void linearMatchesPinLatersExampleWorker() {
    RetryPolicy policy = RetryPolicy.linear(Duration.ofSeconds(1));
    assertThat(policy.delayAfter(1)).isZero();
    assertThat(policy.delayAfter(2)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.delayAfter(5)).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void fixedAndImmediate() {
    assertThat(RetryPolicy.fixed(Duration.ofMinutes(3)).delayAfter(7))
        .isEqualTo(Duration.ofMinutes(3));
    assertThat(RetryPolicy.immediate().delayAfter(2)).isZero();
  }

  @Test
  void exponentialDoublesUpToTheCapWithinTheJitter() {
    RetryPolicy exact = RetryPolicy.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1), 0);
    assertThat(exact.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(exact.delayAfter(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(exact.delayAfter(1000)).isEqualTo(Duration.ofMinutes(1));

    RetryPolicy jittered =
        RetryPolicy.exponential(Duration.ofSeconds(10), Duration.ofHours(1), 0.2);
    for (int i = 0; i < 200; i++) {
      assertThat(jittered.delayAfter(2).toMillis()).isBetween(16_000L, 24_000L);
    }
    assertThatThrownBy(() -> RetryPolicy.exponential(Duration.ZERO, Duration.ZERO, 2))
        .hasMessageContaining("jitter must be 0..1");
  }

  @Test
  void workerJobNumbersAttemptsFromTheDequeueMetadata() {
    WorkerJob first =
        new WorkerJob(
            new dev.flipper.queue.DequeuedJob(
                dev.flipper.queue.JobDescriptor.parse("q:s1:p1:1"), new byte[0], 3, 3));
    WorkerJob last =
        new WorkerJob(
            new dev.flipper.queue.DequeuedJob(
                dev.flipper.queue.JobDescriptor.parse("q:s1:p1:1"), new byte[0], 3, 1));
    assertThat(first.attempt()).isEqualTo(1);
    assertThat(first.isLastAttempt()).isFalse();
    assertThat(last.attempt()).isEqualTo(3);
    assertThat(last.isLastAttempt()).isTrue();
  }
}
