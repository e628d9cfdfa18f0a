package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ackDequeuedJobs (docs/queue.md, "Jobs" and "Operations"); PinLater's testAckFailedJob,
 * testAckJobNotDequeued, testFailedRetry, testRetryDelay. Fix over the original: a success ack only
 * moves IN_PROGRESS jobs.
 */
abstract class AckContract extends ContractArea {

  @Test
  void aSuccessAckMakesTheJobSucceededAndKeepsAttemptsAndClaim() {
    JobDescriptor id = enqueue(aJob().withAttemptsAllowed(3).withCustomStatus("started")).get(0);
    dequeue(1);
    clock().advance(Duration.ofSeconds(2));

    api()
        .ack(
            new AckParams(
                queue(), List.of(new AckParams.Item(id, ";done", Duration.ZERO)), List.of()));

    JobInfo job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(job.attemptsAllowed()).isEqualTo(3);
    assertThat(job.attemptsRemaining()).isEqualTo(3);
    assertThat(job.claimDescriptor()).contains(SOURCE);
    assertThat(job.customStatus()).isEqualTo("started;done");
    assertThat(job.updatedAt()).isEqualTo(clock().instant());
  }

  @Test
  void aFailureAckWithAttemptsLeftMakesTheJobPendingWithOneAttemptFewer() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);

    api()
        .ack(
            new AckParams(
                queue(), List.of(), List.of(new AckParams.Item(id, "oops", Duration.ZERO))));

    JobInfo job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.PENDING);
    assertThat(job.attemptsAllowed()).isEqualTo(2);
    assertThat(job.attemptsRemaining()).isEqualTo(1);
    assertThat(job.claimDescriptor()).isNull();
    assertThat(job.customStatus()).isEqualTo("oops");
    assertThat(job.runAfter()).isEqualTo(clock().instant());
    assertThat(ids(dequeue(1))).containsExactly(id);
  }

  @Test
  void aFailureAckOnTheLastAttemptMakesTheJobFailed() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    ackFailed(List.of(id));
    dequeue(1);

    ackFailed(List.of(id));

    JobInfo job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.FAILED);
    assertThat(job.attemptsRemaining()).isZero();
    assertThat(dequeue(1)).isEmpty();
  }

  @Test
  void aSingleAttemptJobFailsOnItsFirstFailureAndNeverStaysInProgress() {
    JobDescriptor id = enqueue(aJob().withAttemptsAllowed(1)).get(0);
    dequeue(1);

    ackFailed(List.of(id));

    assertThat(lookup(id).state()).isEqualTo(JobState.FAILED);
    assertThat(lookup(id).attemptsRemaining()).isZero();
    assertThat(count(JobState.IN_PROGRESS)).isZero();
  }

  @Test
  void aRetryDelayKeepsTheJobBackUntilItPasses() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    Instant failedAt = clock().instant();

    ackFailed(List.of(id), Duration.ofMillis(2000));

    assertThat(lookup(id).runAfter()).isEqualTo(failedAt.plusMillis(2000));
    assertThat(dequeue(1)).isEmpty();
    clock().advanceMillis(1999);
    assertThat(dequeue(1)).isEmpty();
    clock().advanceMillis(1);
    assertThat(ids(dequeue(1))).containsExactly(id);
  }

  @Test
  void aFailureAckOnAPendingJobChangesNothing() {
    JobDescriptor id = enqueue(aJob("never_dequeued")).get(0);
    JobInfo before = lookup(id);
    clock().advance(Duration.ofSeconds(1));

    ackFailed(List.of(id));

    assertThat(lookup(id)).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  void aSuccessAckOnlyMovesInProgressJobs() {
    List<JobDescriptor> ids = enqueue(aJob("pending"), aJob("failed").withAttemptsAllowed(1));
    JobDescriptor pending = ids.get(0);
    JobDescriptor failed = ids.get(1);
    api().dequeue(DequeueParams.of(queue(), 2, SOURCE));
    ackFailed(List.of(failed));
    ackFailed(List.of(pending)); // back to PENDING with one attempt left
    JobInfo pendingBefore = lookup(pending);
    JobInfo failedBefore = lookup(failed);
    clock().advance(Duration.ofSeconds(1));

    ackSucceeded(List.of(pending, failed));

    assertThat(lookup(pending)).usingRecursiveComparison().isEqualTo(pendingBefore);
    assertThat(lookup(failed)).usingRecursiveComparison().isEqualTo(failedBefore);
  }

  @Test
  void duplicateAndLateAcksAreSilentNoOps() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    ackSucceeded(List.of(id));
    JobInfo done = lookup(id);

    ackSucceeded(List.of(id, id));
    ackFailed(List.of(id));

    assertThat(lookup(id)).usingRecursiveComparison().isEqualTo(done);
  }

  @Test
  void failedRetrySequenceOfFiveJobsWithThreeAttempts() {
    enqueueOneByOne(Jobs.jobs(5, i -> aJob("retry_" + i).withAttemptsAllowed(3)));

    List<JobDescriptor> round = ids(dequeue(5));
    assertThat(round).hasSize(5);
    ackSucceeded(round.subList(0, 2));
    ackFailed(round.subList(2, 5));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 2, JobState.PENDING, 3));

    round = ids(dequeue(5));
    assertThat(round).hasSize(3);
    ackSucceeded(round.subList(0, 1));
    ackFailed(round.subList(1, 3));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 3, JobState.PENDING, 2));

    round = ids(dequeue(5));
    assertThat(round).hasSize(2);
    ackFailed(round);
    assertThat(snapshot()).isEqualTo(Map.of(JobState.SUCCEEDED, 3, JobState.FAILED, 2));
    assertThat(dequeue(5)).isEmpty();
  }

  @Test
  void appendedCustomStatusIsTruncatedTo5000Characters() {
    JobDescriptor id = enqueue(aJob().withCustomStatus("*")).get(0);
    dequeue(1);

    api()
        .ack(
            new AckParams(
                queue(),
                List.of(
                    new AckParams.Item(
                        id, "-".repeat(NewJob.CUSTOM_STATUS_MAX_CHARS), Duration.ZERO)),
                List.of()));

    assertThat(lookup(id).customStatus())
        .isEqualTo("*" + "-".repeat(NewJob.CUSTOM_STATUS_MAX_CHARS - 1));
  }

  @Test
  void anAckForAQueueThatDoesNotExistFails() {
    JobDescriptor ghost = JobDescriptor.parse("nonexistent_queue:s1:p1:1");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () ->
            api()
                .ack(
                    new AckParams(
                        "nonexistent_queue", items(List.of(ghost), Duration.ZERO), List.of())),
        "nonexistent_queue");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () ->
            api()
                .ack(
                    new AckParams(
                        "nonexistent_queue", List.of(), items(List.of(ghost), Duration.ZERO))));
  }

  @Test
  void anAckOfAShardTheStoreDoesNotHaveIsASilentNoOp() {
    enqueue(aJob());
    JobDescriptor elsewhere = new JobDescriptor(queue(), "no_such_shard", 1, 1);

    ackSucceeded(List.of(elsewhere));
    ackFailed(List.of(elsewhere));

    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 1));
  }

  @Test
  void anAckNamingAnotherQueueIsRejectedAndChangesNothing() {
    JobDescriptor id = enqueue(aJob()).get(0);
    dequeue(1);
    JobDescriptor otherQueue =
        new JobDescriptor("other_queue", id.shard(), id.priority(), id.localId());

    assertInvalid(
        () ->
            api()
                .ack(
                    new AckParams(
                        queue(), items(List.of(id, otherQueue), Duration.ZERO), List.of())),
        "other_queue",
        queue());

    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);
  }
}
