package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.monitor.MonitorReport;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The queue monitor over the store (docs/operations.md, "The queue monitor"); PinLater's
 * BackendQueueMonitorBaseTest.
 */
abstract class MonitorContract extends ContractArea {

  @Test
  void jobGarbageCollection() {
    List<JobDescriptor> ids =
        enqueueOneByOne(Jobs.jobs(100, i -> aJob("gc_" + i).withAttemptsAllowed(1)));
    List<JobDescriptor> claimed = ids(dequeue(100));
    ackSucceeded(claimed.subList(0, 50));
    ackFailed(claimed.subList(50, 100));
    clock().advance(Duration.ofSeconds(1));

    MonitorReport succeededGc = fx().monitor().succeededTtl(Duration.ofMillis(1)).build().runOnce();
    assertThat(snapshot()).isEqualTo(Map.of(JobState.FAILED, 50));
    assertThat(succeededGc.forQueue(queue())).isEqualTo(new MonitorReport.QueueCounts(0, 0, 50, 0));

    MonitorReport failedGc = fx().monitor().failedTtl(Duration.ofMillis(1)).build().runOnce();
    assertThat(snapshot()).isEmpty();
    assertThat(failedGc.forQueue(queue())).isEqualTo(new MonitorReport.QueueCounts(0, 0, 0, 50));
    assertThat(api().lookup(ids, false)).isEmpty();
  }

  @Test
  void finishedJobsAreKeptUntilTheirOwnTtlPasses() {
    List<JobDescriptor> ids =
        enqueue(aJob("ok").withAttemptsAllowed(1), aJob("bad").withAttemptsAllowed(1));
    dequeue(2);
    ackSucceeded(ids.subList(0, 1));
    ackFailed(ids.subList(1, 2));
    QueueMonitor monitor =
        fx().monitor().succeededTtl(Duration.ofHours(1)).failedTtl(Duration.ofHours(2)).build();

    clock().advance(Duration.ofMinutes(59));
    assertThat(monitor.runOnce().totals().total()).isZero();
    clock().advance(Duration.ofMinutes(2));
    assertThat(monitor.runOnce().forQueue(queue()))
        .isEqualTo(new MonitorReport.QueueCounts(0, 0, 1, 0));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.FAILED, 1));
    clock().advance(Duration.ofMinutes(58));
    assertThat(monitor.runOnce().totals().total()).isZero();
    clock().advance(Duration.ofMinutes(2));
    assertThat(monitor.runOnce().forQueue(queue()))
        .isEqualTo(new MonitorReport.QueueCounts(0, 0, 0, 1));
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void timedOutClaimsAreRetriedOrFailedByAttemptsLeft() {
    List<JobDescriptor> once =
        enqueueOneByOne(Jobs.jobs(50, i -> aJob("once_" + i).withAttemptsAllowed(1)));
    List<JobDescriptor> twice = enqueueOneByOne(Jobs.jobs(50, i -> aJob("twice_" + i)));
    assertThat(dequeue(100)).hasSize(100);
    clock().advance(Duration.ofSeconds(1));

    MonitorReport report = fx().monitor().claimTimeout(Duration.ofMillis(1)).build().runOnce();

    assertThat(report.forQueue(queue())).isEqualTo(new MonitorReport.QueueCounts(50, 50, 0, 0));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 50, JobState.FAILED, 50));
    JobInfo retried = lookup(twice.get(0));
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(1);
    assertThat(retried.claimDescriptor()).isNull();
    JobInfo failed = lookup(once.get(0));
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.attemptsRemaining()).isZero();
    assertThat(ids(dequeue(100)))
        .as("retried jobs are due at once")
        .containsExactlyInAnyOrderElementsOf(twice);
  }

  @Test
  void aClaimIsKeptUntilTheTimeOutPasses() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    QueueMonitor monitor = fx().monitor().claimTimeout(Duration.ofMinutes(10)).build();

    clock().advance(Duration.ofMinutes(9));
    assertThat(monitor.runOnce().totals().total()).isZero();
    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);

    clock().advance(Duration.ofMinutes(2));
    assertThat(monitor.runOnce().forQueue(queue()).timedOutRetried()).isEqualTo(1);
    assertThat(lookup(id).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void aRetriedJobThatTimesOutAgainOnItsLastAttemptFails() {
    JobDescriptor id = enqueue(aJob()).get(0);
    QueueMonitor monitor = fx().monitor().claimTimeout(Duration.ofMinutes(1)).build();
    for (int attempt = 0; attempt < 2; attempt++) {
      assertThat(ids(dequeue(1))).containsExactly(id);
      clock().advance(Duration.ofMinutes(2));
      monitor.runOnce();
    }
    assertThat(lookup(id).state()).isEqualTo(JobState.FAILED);
    assertThat(count(JobState.IN_PROGRESS)).isZero();
  }

  @Test
  void eachStepTouchesAtMostTheBatchSizePerShardPerRun() {
    List<JobDescriptor> ids =
        enqueueOneByOne(Jobs.jobs(40, i -> aJob("batch_" + i).withAttemptsAllowed(1)));
    int shards = byShard(ids).size();
    List<JobDescriptor> claimed = ids(dequeue(20));
    ackSucceeded(claimed.subList(0, 10));
    ackFailed(claimed.subList(10, 20));
    dequeue(20);
    clock().advance(Duration.ofDays(30));
    QueueMonitor monitor = fx().monitor().batchSize(3).build();

    MonitorReport.QueueCounts first = monitor.runOnce().forQueue(queue());

    assertThat(first.timedOutFailed()).isBetween(1, 3 * shards);
    assertThat(first.succeededDeleted()).isBetween(1, 3 * shards);
    assertThat(first.failedDeleted()).isBetween(1, 3 * shards);
    int timedOut = first.timedOutFailed();
    int succeededDeleted = first.succeededDeleted();
    for (int run = 0; run < 20; run++) {
      MonitorReport.QueueCounts next = monitor.runOnce().forQueue(queue());
      timedOut += next.timedOutFailed();
      succeededDeleted += next.succeededDeleted();
    }
    assertThat(timedOut).isEqualTo(20);
    assertThat(succeededDeleted).isEqualTo(10);
  }

  @Test
  void theMonitorCoversEveryQueue() {
    api().createQueue("queue_b");
    JobDescriptor a = enqueue(aJob()).get(0);
    JobDescriptor b = api().enqueue("queue_b", List.of(aJob())).get(0);
    dequeue(1);
    api().dequeue(DequeueParams.of("queue_b", 1, SOURCE));
    clock().advance(Duration.ofHours(1));

    MonitorReport report = fx().monitor().build().runOnce();

    assertThat(report.forQueue(queue()).timedOutRetried()).isEqualTo(1);
    assertThat(report.forQueue("queue_b").timedOutRetried()).isEqualTo(1);
    assertThat(api().lookup(List.of(a, b), false).values())
        .allSatisfy(job -> assertThat(job.state()).isEqualTo(JobState.PENDING));
  }

  @Test
  void aTimedOutJobBecomesDueNowEvenIfItsRunAfterWasMovedAhead() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    Instant later = clock().instant().plus(Duration.ofMinutes(30));
    api()
        .checkpoint(
            queue(), SOURCE, List.of(new CheckpointParams(id, null, false, later, null, null)));
    clock().advance(Duration.ofMinutes(45));

    fx().monitor().claimTimeout(Duration.ofMinutes(10)).build().runOnce();

    assertThat(lookup(id).state()).isEqualTo(JobState.PENDING);
    assertThat(ids(dequeue(1))).containsExactly(id);
  }
}
