package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.StoredJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Claim time-out and garbage collection: bounded, per queue, and exactly once under concurrent
 * monitors.
 */
class MonitorPrimitivesTest extends RedisStoreTestBase {

  @Test
  void timedOutClaimsRetryOrFailByAttemptsLeft() {
    long twoAttempts = enqueue(job(utf8("a"), 1, T0 - 5, 2));
    long oneAttempt = enqueue(job(utf8("b"), 2, T0 - 5, 1));
    long fresh = enqueue(job(utf8("c"), 1, T0 - 5, 2));
    shard.claim(QUEUE, 1, 1, new Claim("d", "w", T0));
    shard.claim(QUEUE, 2, 1, new Claim("d", "w", T0));
    shard.claim(QUEUE, 1, 1, new Claim("d", "w", T0 + 100));

    MonitorCounts counts = shard.timeOutClaims(T0 + 100, 100, T0 + 200);

    assertThat(counts.retried()).isEqualTo(Map.of(QUEUE, 1));
    assertThat(counts.failed()).isEqualTo(Map.of(QUEUE, 1));
    StoredJob retried = lookup(1, twoAttempts);
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(1);
    assertThat(retried.runAfterMillis()).isEqualTo(T0 + 200);
    assertThat(retried.claimDescriptor()).isNull();
    StoredJob failed = lookup(2, oneAttempt);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.attemptsRemaining()).isZero();
    assertThat(lookup(1, fresh).state())
        .as("claimed at the cut-off, not before")
        .isEqualTo(JobState.IN_PROGRESS);
    assertThat(shard.timeOutClaims(T0 + 100, 100, T0 + 300).total()).isZero();
  }

  @Test
  void concurrentMonitorsMoveEachJobOnceWithinTheirBudgets() throws Exception {
    shard.createQueue("other");
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      jobs.add(job(utf8("j" + i), 1 + i % 2, T0, 3));
    }
    shard.enqueue(QUEUE, jobs);
    shard.enqueue("other", jobs.subList(0, 500));
    for (String queue : List.of(QUEUE, "other")) {
      for (int priority = 1; priority <= 2; priority++) {
        shard.claim(queue, priority, 10_000, new Claim("d", "w", T0));
      }
    }

    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Integer>> monitors = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      monitors.add(
          pool.submit(
              () -> {
                int moved = 0;
                while (true) {
                  MonitorCounts counts = shard.timeOutClaims(T0 + 1, 250, T0 + 10);
                  assertThat(counts.total()).isLessThanOrEqualTo(250);
                  if (counts.total() == 0) {
                    return moved;
                  }
                  moved += counts.total();
                }
              }));
    }
    int total = 0;
    for (Future<Integer> monitor : monitors) {
      total += monitor.get();
    }
    pool.shutdown();

    assertThat(total).isEqualTo(3_500);
    for (int priority = 1; priority <= 2; priority++) {
      assertThat(
              shard.count(
                  QUEUE, priority, JobState.PENDING, false, BodyFilter.ALL, T0 + 10, 10_000))
          .isEqualTo(1_500);
      for (StoredJob job : shard.peek(QUEUE, priority, 10_000, T0 + 10)) {
        assertThat(job.attemptsRemaining()).as("one attempt taken, never two").isEqualTo(2);
      }
    }
  }

  @Test
  void garbageCollectionDeletesFinishedJobsByTimeEntered() {
    shard.createQueue("other");
    List<Long> ids = shard.enqueue(QUEUE, List.of(job("old"), job("new"), job("failed")));
    long otherId = shard.enqueue("other", List.of(job("elsewhere"))).get(0);
    claim(1, 10, T0);
    shard.claim("other", 1, 10, new Claim("d", "w", T0));
    shard.ackSucceeded(QUEUE, List.of(ack(1, ids.get(0))), T0 + 10);
    shard.ackSucceeded("other", List.of(ack(1, otherId)), T0 + 10);
    shard.ackSucceeded(QUEUE, List.of(ack(1, ids.get(1))), T0 + 50);
    shard.ackFailed(QUEUE, List.of(ack(1, ids.get(2))), T0 + 10); // 2 attempts: back to PENDING

    assertThat(shard.deleteFinished(JobState.SUCCEEDED, T0 + 50, 1)).hasSize(1);
    assertThat(shard.deleteFinished(JobState.SUCCEEDED, T0 + 50, 100)).hasSize(1);
    assertThat(shard.deleteFinished(JobState.SUCCEEDED, T0 + 50, 100)).isEmpty();
    assertThat(lookup(1, ids.get(0))).isNull();
    assertThat(lookup(1, ids.get(1))).isNotNull();
    assertThat(lookup(1, ids.get(2)).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void garbageCollectionSkipsJobsThatLeftTheStateOrEnteredItAgain() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                job(utf8("retried"), 1, T0, 1),
                job(utf8("deleted"), 1, T0, 1),
                job(utf8("refailed"), 1, T0, 1)));
    claim(1, 10, T0);
    shard.ackFailed(QUEUE, ids.stream().map(id -> ack(1, id)).toList(), T0 + 10);
    // All three failed at T0 + 10. Then: one is retried and stays pending, one is deleted, and one
    // is
    // retried and fails again at T0 + 100.
    shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.of("^deleted$"), 10);
    assertThat(shard.retryFailed(QUEUE, 1, 1, T0, 10, T0 + 20)).isEqualTo(2);
    shard.claim(QUEUE, 1, 10, new Claim("d", "w", T0 + 30));
    shard.ackSucceeded(QUEUE, List.of(ack(1, ids.get(0))), T0 + 40);
    shard.ackFailed(QUEUE, List.of(ack(1, ids.get(2))), T0 + 100);

    assertThat(shard.deleteFinished(JobState.FAILED, T0 + 50, 100))
        .as("only stale entries so far")
        .isEmpty();
    assertThat(lookup(1, ids.get(2)).state()).isEqualTo(JobState.FAILED);
    assertThat(shard.deleteFinished(JobState.FAILED, T0 + 101, 100)).isEqualTo(Map.of(QUEUE, 1));
    assertThat(lookup(1, ids.get(2))).isNull();
    assertThat(lookup(1, ids.get(0)).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(shard.deleteFinished(JobState.SUCCEEDED, T0 + 41, 100)).isEqualTo(Map.of(QUEUE, 1));
    assertThat(shard.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, T0 + 200, 10))
        .isZero();
    assertThat(
            RedisTestSupport.keys(prefix + "{1:" + QUEUE + "}:p1:").stream()
                .filter(key -> key.endsWith(":log")))
        .as("logs drained")
        .isEmpty();
  }

  private static byte[] utf8(String text) {
    return RedisTestSupport.utf8(text);
  }
}
