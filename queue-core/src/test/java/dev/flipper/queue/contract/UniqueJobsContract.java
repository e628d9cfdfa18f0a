package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.EnqueueOutcome;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Unique jobs (docs/queue.md, "Unique jobs"): a job with a unique key is not stored twice while the
 * key is held; the duplicate's enqueue returns the holder. Not in PinLater.
 */
abstract class UniqueJobsContract extends ContractArea {

  private List<EnqueueOutcome> enqueueWithOutcomes(NewJob... jobs) {
    return api().enqueueWithOutcomes(queue(), List.of(jobs));
  }

  private EnqueueOutcome enqueueOne(NewJob job) {
    return api().enqueueWithOutcomes(queue(), List.of(job)).get(0);
  }

  @Test
  void aDuplicateWhilePendingReturnsTheHolderAndStoresNothing() {
    EnqueueOutcome first = enqueueOne(aJob("first").withUniqueKey("order-42"));
    EnqueueOutcome second = enqueueOne(aJob("second").withUniqueKey("order-42").withPriority(2));

    assertThat(first.duplicate()).isFalse();
    assertThat(second).isEqualTo(new EnqueueOutcome(first.job(), true));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 1));
    assertThat(Jobs.text(lookup(first.job()).body())).isEqualTo("first");
    assertThat(enqueue(aJob("third").withUniqueKey("order-42"))).containsExactly(first.job());
  }

  @Test
  void otherKeysAndJobsWithoutKeysAreNotAffected() {
    JobDescriptor keyed = enqueueOne(aJob().withUniqueKey("a")).job();
    EnqueueOutcome other = enqueueOne(aJob().withUniqueKey("b"));
    List<JobDescriptor> plain = enqueue(aJob(), aJob());

    assertThat(other.duplicate()).isFalse();
    assertThat(other.job()).isNotEqualTo(keyed);
    assertThat(Set.copyOf(plain)).hasSize(2).doesNotContain(keyed, other.job());
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 4));
  }

  @Test
  void theKeyIsHeldWhileRunningAndReleasedWhenTheJobSucceeds() {
    JobDescriptor first = enqueueOne(aJob().withUniqueKey("k")).job();
    assertThat(ids(dequeue(1))).containsExactly(first);
    assertThat(enqueueOne(aJob().withUniqueKey("k"))).isEqualTo(new EnqueueOutcome(first, true));

    ackSucceeded(List.of(first));
    EnqueueOutcome next = enqueueOne(aJob().withUniqueKey("k"));

    assertThat(next.duplicate()).isFalse();
    assertThat(next.job()).isNotEqualTo(first);
  }

  @Test
  void aRetryKeepsTheKeyAndFailingForGoodReleasesIt() {
    JobDescriptor first = enqueueOne(aJob().withUniqueKey("k").withAttemptsAllowed(2)).job();
    dequeue(1);
    ackFailed(List.of(first)); // one attempt left: PENDING again
    assertThat(enqueueOne(aJob().withUniqueKey("k")).duplicate()).isTrue();

    dequeue(1);
    ackFailed(List.of(first)); // FAILED for good
    EnqueueOutcome next = enqueueOne(aJob().withUniqueKey("k"));
    assertThat(next.duplicate()).isFalse();

    // Retrying the failed job does not give it its key back: the new job holds it.
    assertThat(api().retryFailed(RetryFailedParams.of(queue()))).isEqualTo(1);
    assertThat(enqueueOne(aJob().withUniqueKey("k")))
        .isEqualTo(new EnqueueOutcome(next.job(), true));
  }

  @Test
  void aClaimTimeOutThatFailsTheJobReleasesTheKey() {
    JobDescriptor first = enqueueOne(aJob().withUniqueKey("k").withAttemptsAllowed(1)).job();
    dequeue(1);
    fx().monitor().claimTimeout(Duration.ofMillis(1)).build().runOnce();
    clock().advance(Duration.ofMillis(5));
    fx().monitor().claimTimeout(Duration.ofMillis(1)).build().runOnce();

    assertThat(lookupWithoutBody(first).state()).isEqualTo(JobState.FAILED);
    assertThat(enqueueOne(aJob().withUniqueKey("k")).duplicate()).isFalse();
  }

  @Test
  void deletingTheHolderOrCollectingItReleasesTheKey() {
    enqueueOne(aJob().withUniqueKey("deleted"));
    api().deleteJobs(DeleteJobsParams.of(queue(), JobState.PENDING));
    assertThat(enqueueOne(aJob().withUniqueKey("deleted")).duplicate()).isFalse();

    JobDescriptor windowed =
        enqueueOne(aJob().withUniqueKey("gc").withUniqueFor(Duration.ofDays(1))).job();
    dequeue(5);
    ackSucceeded(List.of(windowed));
    fx().monitor().succeededTtl(Duration.ofMillis(1)).build().runOnce();
    clock().advance(Duration.ofMillis(5));
    fx().monitor().succeededTtl(Duration.ofMillis(1)).build().runOnce();

    assertThat(lookup(windowed)).isNull();
    assertThat(enqueueOne(aJob().withUniqueKey("gc")).duplicate()).isFalse();
  }

  @Test
  void aWindowHoldsTheKeyAfterTheJobFinishesUntilItEnds() {
    JobDescriptor first =
        enqueueOne(aJob().withUniqueKey("w").withUniqueFor(Duration.ofMinutes(10))).job();
    dequeue(1);
    ackSucceeded(List.of(first));

    clock().advance(Duration.ofMinutes(10).minusMillis(1));
    assertThat(enqueueOne(aJob().withUniqueKey("w"))).isEqualTo(new EnqueueOutcome(first, true));

    clock().advance(Duration.ofMillis(1));
    EnqueueOutcome after = enqueueOne(aJob().withUniqueKey("w"));
    assertThat(after.duplicate()).isFalse();
    assertThat(after.job()).isNotEqualTo(first);
  }

  @Test
  void inOneRequestTheFirstJobWithAKeyWinsAndOrderIsKept() {
    List<EnqueueOutcome> outcomes =
        enqueueWithOutcomes(
            aJob("a1").withUniqueKey("a"),
            aJob("plain"),
            aJob("a2").withUniqueKey("a"),
            aJob("b1").withUniqueKey("b"),
            aJob("b2").withUniqueKey("b"));

    assertThat(outcomes)
        .extracting(EnqueueOutcome::duplicate)
        .containsExactly(false, false, true, false, true);
    assertThat(outcomes.get(2).job()).isEqualTo(outcomes.get(0).job());
    assertThat(outcomes.get(4).job()).isEqualTo(outcomes.get(3).job());
    assertThat(Jobs.text(lookup(outcomes.get(1).job()).body())).isEqualTo("plain");
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 3));
  }

  @Test
  void aKeyIsUniquePerQueue() {
    api().createQueue("other_queue");
    JobDescriptor here = enqueueOne(aJob().withUniqueKey("k")).job();
    List<EnqueueOutcome> there =
        api().enqueueWithOutcomes("other_queue", List.of(aJob().withUniqueKey("k")));

    assertThat(there.get(0).duplicate()).isFalse();
    assertThat(there.get(0).job().queue()).isEqualTo("other_queue");
    assertThat(here.queue()).isEqualTo(queue());
  }

  @Test
  void aSecondServerOverTheSameStorageSeesTheKey() {
    JobDescriptor first = enqueueOne(aJob().withUniqueKey("shared")).job();
    JobQueue b = fx().secondServerApi();

    assertThat(b.enqueueWithOutcomes(queue(), List.of(aJob().withUniqueKey("shared"))))
        .containsExactly(new EnqueueOutcome(first, true));
  }

  @Test
  void keyedJobsSpreadOverTheShardsThatTakeNewJobsOnly() {
    fx().useShards(TestShard.of("1"), TestShard.dequeueOnly("2"), TestShard.of("3"));
    Set<String> shards = new java.util.TreeSet<>();
    for (int k = 0; k < 30; k++) {
      shards.add(enqueueOne(aJob().withUniqueKey("spread-" + k)).job().shard());
    }

    assertThat(shards).containsExactly("1", "3");
  }

  @Test
  void badKeysAndWindowsAreRejectedWithTheRule() {
    assertInvalid(() -> enqueue(aJob().withUniqueKey("")), "uniqueKey", "1..128");
    assertInvalid(() -> enqueue(aJob().withUniqueKey("x".repeat(129))), "129 characters");
    assertInvalid(() -> enqueue(aJob().withUniqueKey("has space")), "'has space'", "allowed");
    assertInvalid(() -> enqueue(aJob().withUniqueFor(Duration.ofMinutes(1))), "uniqueKey is not");
    assertInvalid(
        () -> enqueue(aJob().withUniqueKey("k").withUniqueFor(Duration.ZERO)), "out of range");
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void sixteenThreadsOnTwoServersNeverStoreADuplicate() throws Exception {
    JobQueue a = api();
    JobQueue b = fx().secondServerApi();
    int threads = 16;
    int keys = 40;
    int rounds = 3;
    Map<String, Set<JobDescriptor>> answers = new ConcurrentHashMap<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Callable<Void>> enqueuers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      JobQueue via = t % 2 == 0 ? a : b;
      enqueuers.add(
          () -> {
            go.await();
            for (int round = 0; round < rounds; round++) {
              for (int k = 0; k < keys; k++) {
                String key = "key-" + k;
                JobDescriptor got =
                    via.enqueueWithOutcomes(queue(), List.of(aJob(key).withUniqueKey(key)))
                        .get(0)
                        .job();
                answers.computeIfAbsent(key, x -> ConcurrentHashMap.newKeySet()).add(got);
              }
            }
            return null;
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (Callable<Void> each : enqueuers) {
        done.add(pool.submit(each));
      }
      go.countDown();
      for (Future<Void> each : done) {
        each.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(answers).hasSize(keys);
    answers.forEach((key, got) -> assertThat(got).as("descriptors for %s", key).hasSize(1));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, keys));
    List<DequeuedJob> all = dequeue(keys + 1);
    assertThat(all).hasSize(keys);
  }
}
