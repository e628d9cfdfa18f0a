package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * dequeueJobs (docs/queue.md, "Jobs" and "Operations"); PinLater's testBasicOperations,
 * testPriorities, testRunAfter, testManyJobs.
 */
abstract class DequeueContract extends ContractArea {

  @Test
  void basicOperations() {
    JobDescriptor id = enqueue(aJob("basic_body")).get(0);
    assertThat(count(JobState.PENDING)).isEqualTo(1);
    assertThat(ids(dryRun(10))).containsExactly(id);

    JobInfo pending = lookup(id);
    assertThat(pending.state()).isEqualTo(JobState.PENDING);
    assertThat(pending.attemptsAllowed()).isEqualTo(2);
    assertThat(pending.attemptsRemaining()).isEqualTo(2);
    assertThat(pending.claimDescriptor()).isNull();
    assertThat(pending.customStatus()).isEmpty();
    assertThat(Jobs.text(pending.body())).isEqualTo("basic_body");

    clock().advance(Duration.ofSeconds(1));
    List<DequeuedJob> dequeued = dequeue(10);
    assertThat(ids(dequeued)).containsExactly(id);
    assertThat(Jobs.text(dequeued.get(0).body())).isEqualTo("basic_body");
    assertThat(count(JobState.IN_PROGRESS)).isEqualTo(1);

    clock().advance(Duration.ofSeconds(1));
    ackSucceeded(List.of(id));
    assertThat(count(JobState.SUCCEEDED)).isEqualTo(1);
    assertThat(dryRun(10)).isEmpty();

    JobInfo done = lookupWithoutBody(id);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.attemptsAllowed()).isEqualTo(2);
    assertThat(done.attemptsRemaining()).isEqualTo(2);
    assertThat(done.updatedAt()).isAfter(pending.updatedAt());
    assertThat(done.claimDescriptor()).contains(SOURCE);
    assertThat(done.body()).isNull();
  }

  /**
   * The service (not the wire, which carries no times) says how long each claimed job waited since
   * it was due: the queue server's dequeue delay (docs/queue.md, "Metrics per job").
   */
  @Test
  void theServiceSaysHowLongEachClaimedJobWaitedSinceItWasDue() {
    Instant start = clock().instant();
    JobDescriptor now = enqueue(aJob("now")).get(0);
    JobDescriptor later = enqueue(aJob("later").withRunAfter(start.plusSeconds(10))).get(0);
    clock().advance(Duration.ofSeconds(25));
    assertThat(waitedMillis(serviceDequeue(10)))
        .containsExactlyInAnyOrderEntriesOf(Map.of(now, 25_000L, later, 15_000L));

    ackFailed(List.of(now), Duration.ofSeconds(2)); // due again at start + 27 s
    clock().advance(Duration.ofSeconds(5));
    assertThat(waitedMillis(serviceDequeue(10))).containsExactlyEntriesOf(Map.of(now, 3_000L));
  }

  private List<DequeuedJob> serviceDequeue(int limit) {
    return fx().service().dequeue(DequeueParams.of(queue(), limit, SOURCE));
  }

  private static Map<JobDescriptor, Long> waitedMillis(List<DequeuedJob> jobs) {
    Map<JobDescriptor, Long> waited = new java.util.HashMap<>();
    jobs.forEach(job -> waited.put(job.descriptor(), job.waitedMillis()));
    return waited;
  }

  @Test
  void neverReturnsAJobBeforeItsRunAfter() {
    Instant runAfter = clock().instant().plusSeconds(1);
    JobDescriptor id = enqueue(aJob().withRunAfter(runAfter)).get(0);

    assertThat(dequeue(10)).isEmpty();
    assertThat(dryRun(10)).isEmpty();
    assertThat(lookup(id).runAfter()).isEqualTo(runAfter);

    clock().advanceMillis(999);
    assertThat(dequeue(10)).isEmpty();
    clock().advanceMillis(1);
    assertThat(ids(dequeue(10))).containsExactly(id);
  }

  @Test
  void neverReturnsMoreThanTheLimit() {
    enqueueOneByOne(Jobs.numbered("j", 12));

    assertThat(dequeue(5)).hasSize(5);
    assertThat(dryRun(3)).hasSize(3);
    assertThat(dequeue(1)).hasSize(1);
    assertThat(dequeue(100)).hasSize(6);
  }

  @Test
  void returnsPriorityOneBeforeTwoBeforeThree() {
    List<JobDescriptor> ids =
        enqueue(aJob("p3").withPriority(3), aJob("p2").withPriority(2), aJob("p1"));

    assertThat(ids(dequeue(1))).containsExactly(ids.get(2));
    ackSucceeded(ids.subList(2, 3));
    assertThat(ids(dequeue(1))).containsExactly(ids.get(1));
    ackSucceeded(ids.subList(1, 2));
    assertThat(ids(dequeue(1))).containsExactly(ids.get(0));
    ackSucceeded(ids.subList(0, 1));
    assertThat(count(JobState.SUCCEEDED)).isEqualTo(3);
  }

  @Test
  void drainsEveryShardsHigherPriorityFirst() {
    List<JobDescriptor> low = enqueueOneByOne(Jobs.jobs(20, i -> aJob("low" + i).withPriority(2)));
    List<JobDescriptor> high = enqueueOneByOne(Jobs.jobs(20, i -> aJob("high" + i)));
    assertThat(byShard(high)).as("high-priority jobs on both shards").hasSize(2);

    assertThat(ids(dryRun(20))).containsExactlyInAnyOrderElementsOf(high);
    assertThat(ids(dequeue(20))).containsExactlyInAnyOrderElementsOf(high);
    assertThat(ids(dequeue(100))).containsExactlyInAnyOrderElementsOf(low);
  }

  @Test
  void aDequeuedJobIsInProgressWithAClaimNamingTheSource() {
    JobDescriptor id = enqueue(aJob()).get(0);
    Instant enqueuedAt = clock().instant();
    clock().advance(Duration.ofSeconds(3));

    dequeue(1);

    JobInfo job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(job.claimDescriptor()).contains(SOURCE);
    assertThat(job.updatedAt()).isEqualTo(enqueuedAt.plusSeconds(3));
    assertThat(job.attemptsRemaining()).isEqualTo(2);
  }

  @Test
  void repeatedDequeuesReturnEveryJobExactlyOnce() {
    List<JobDescriptor> ids =
        enqueueOneByOne(
            Jobs.jobs(100, i -> aJob("many_" + i).withAttemptsAllowed(1).withPriority(1 + i % 3)));

    Set<JobDescriptor> seen = new HashSet<>();
    for (int round = 0; round < 10; round++) {
      List<DequeuedJob> batch = dequeue(10);
      assertThat(batch).hasSize(10);
      for (DequeuedJob job : batch) {
        assertThat(seen.add(job.descriptor())).as("returned twice: %s", job.descriptor()).isTrue();
      }
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(dequeue(10)).isEmpty();
    assertThat(count(JobState.IN_PROGRESS)).isEqualTo(100);

    List<JobDescriptor> all = new ArrayList<>(seen);
    ackSucceeded(all.subList(0, 50));
    ackFailed(all.subList(50, 100));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 50, JobState.FAILED, 50));
  }

  @Test
  void aDryRunReturnsBodiesAndMetadataAndChangesNothing() {
    JobDescriptor id = enqueue(aJob("dry_body").withAttemptsAllowed(3)).get(0);
    JobInfo before = lookup(id);
    clock().advance(Duration.ofSeconds(1));

    List<DequeuedJob> peeked = dryRun(10);

    assertThat(peeked).hasSize(1);
    assertThat(Jobs.text(peeked.get(0).body())).isEqualTo("dry_body");
    assertThat(peeked.get(0).attemptsAllowed()).isEqualTo(3);
    assertThat(peeked.get(0).attemptsRemaining()).isEqualTo(3);
    assertThat(lookup(id)).usingRecursiveComparison().isEqualTo(before);
    assertThat(ids(dequeue(10))).containsExactly(id);
  }

  @Test
  void metadataReportsAttemptsAsStoredBeforeThisAttempt() {
    JobDescriptor id = enqueue(aJob()).get(0);
    DequeuedJob first = dequeue(1).get(0);
    assertThat(first.attemptsAllowed()).isEqualTo(2);
    assertThat(first.attemptsRemaining()).isEqualTo(2);
    ackFailed(List.of(id));

    DequeuedJob peeked = dryRun(1).get(0);
    DequeuedJob second = dequeue(1).get(0);

    assertThat(peeked.attemptsAllowed()).isEqualTo(2);
    assertThat(peeked.attemptsRemaining()).isEqualTo(1);
    assertThat(second.attemptsAllowed()).isEqualTo(2);
    assertThat(second.attemptsRemaining()).isEqualTo(1);
  }

  @Test
  void aPiggyBackedAckIsAppliedEvenWhenNothingIsReturned() {
    enqueueOneByOne(Jobs.numbered("ack_during_dequeue_", 5));

    List<JobDescriptor> batch = ids(dequeue(2));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 3, JobState.IN_PROGRESS, 2));

    batch = ids(dequeueAcking(batch, 2));
    assertThat(batch).hasSize(2);
    assertThat(snapshot())
        .isEqualTo(Map.of(JobState.PENDING, 1, JobState.IN_PROGRESS, 2, JobState.SUCCEEDED, 2));

    batch = ids(dequeueAcking(batch, 2));
    assertThat(batch).hasSize(1);
    assertThat(snapshot()).isEqualTo(Map.of(JobState.IN_PROGRESS, 1, JobState.SUCCEEDED, 4));

    batch = ids(dequeueAcking(batch, 2));
    assertThat(batch).isEmpty();
    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 5));
  }

  @Test
  void piggyBackedAcksForEveryShardAreAppliedWhenTheFirstShardVisitedFillsTheLimit() {
    List<JobDescriptor> claimed = enqueueOneByOne(Jobs.numbered("first_", 20));
    assertThat(byShard(claimed)).as("jobs on both shards").hasSize(2);
    assertThat(dequeue(20)).hasSize(20);
    List<JobDescriptor> next = enqueueOneByOne(Jobs.numbered("next_", 20));
    assertThat(byShard(next)).as("either shard can fill a dequeue of one").hasSize(2);
    List<JobDescriptor> succeeded = claimed.subList(0, 10);
    List<JobDescriptor> failed = claimed.subList(10, 20);
    AckParams ack =
        new AckParams(queue(), items(succeeded, Duration.ZERO), items(failed, Duration.ofHours(1)));

    List<DequeuedJob> one = api().dequeue(DequeueParams.of(queue(), 1, SOURCE).withAck(ack));

    assertThat(one).hasSize(1);
    assertThat(next).contains(one.get(0).descriptor());
    assertThat(snapshot())
        .isEqualTo(Map.of(JobState.SUCCEEDED, 10, JobState.PENDING, 29, JobState.IN_PROGRESS, 1));
    assertThat(countFuture(JobState.PENDING))
        .as("failed jobs wait for their retry delay")
        .isEqualTo(10);
  }

  @Test
  void aPiggyBackedAckForShardsTheDequeueDoesNotVisitIsApplied() {
    List<JobDescriptor> claimed = enqueueOneByOne(Jobs.numbered("cov_", 20));
    assertThat(byShard(claimed)).as("jobs on both shards").hasSize(2);
    assertThat(dequeue(20)).hasSize(20);
    AckParams ack = new AckParams(queue(), items(claimed, Duration.ZERO), List.of());

    assertThat(api().dequeue(DequeueParams.of(queue(), 10, SOURCE).withCoverage(0.0).withAck(ack)))
        .isEmpty();

    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 20));
  }

  @Test
  void aPiggyBackedAckIsAppliedByADryRunToo() {
    enqueue(aJob("one"), aJob("two"));
    List<JobDescriptor> claimed = ids(dequeue(1));
    AckParams ack = new AckParams(queue(), List.of(), items(claimed, Duration.ZERO));

    List<DequeuedJob> peeked =
        api().dequeue(DequeueParams.of(queue(), 10, SOURCE).withDryRun(true).withAck(ack));

    assertThat(peeked).hasSize(2); // the failed job is PENDING again, next to the untouched one
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 2));
  }

  @Test
  void coverageLimitsTheShardsVisited() {
    List<JobDescriptor> ids = enqueueOneByOne(Jobs.numbered("cov_", 30));
    assertThat(byShard(ids)).as("jobs on both shards").hasSize(2);

    assertThat(api().dequeue(DequeueParams.of(queue(), 100, SOURCE).withCoverage(0.0))).isEmpty();

    List<DequeuedJob> half =
        api().dequeue(DequeueParams.of(queue(), 100, SOURCE).withCoverage(0.5));
    assertThat(byShard(ids(half))).as("one shard of two").hasSize(1);
    String visited = half.get(0).descriptor().shard();
    assertThat(half).hasSize(byShard(ids).get(visited).size());

    List<DequeuedJob> rest =
        api().dequeue(DequeueParams.of(queue(), 100, SOURCE).withCoverage(1.0));
    assertThat(half.size() + rest.size()).isEqualTo(30);
  }

  @Test
  void dequeueFromAQueueThatDoesNotExistFails() {
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().dequeue(DequeueParams.of("no_such_queue", 5, SOURCE)),
        "no_such_queue");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().dequeue(DequeueParams.of("no_such_queue", 5, SOURCE).withDryRun(true)));
  }

  @Test
  void dequeueFromAnEmptyQueueReturnsNothing() {
    assertThat(dequeue(10)).isEmpty();
    assertThat(dryRun(10)).isEmpty();
  }

  private List<DequeuedJob> dequeueAcking(List<JobDescriptor> succeeded, int limit) {
    AckParams ack = new AckParams(queue(), items(succeeded, Duration.ZERO), List.of());
    return api().dequeue(DequeueParams.of(queue(), limit, SOURCE).withAck(ack));
  }
}
