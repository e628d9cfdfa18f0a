package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * retryFailedJobs and deleteJobs (docs/queue.md, "Operations"); PinLater's testRetryFailedJobs,
 * testDeleteJobs.
 */
abstract class RetryAndDeleteContract extends ContractArea {

  @Test
  void retryFailedJobsScenario() {
    List<JobDescriptor> ids = failedJobs(20, 2);
    assertThat(count(JobState.FAILED, 2)).isEqualTo(20);
    assertThat(api().retryFailed(RetryFailedParams.of(queue()))).as("default priority 1").isZero();

    Instant runAfter = clock().instant().plusSeconds(1);
    assertThat(api().retryFailed(new RetryFailedParams(queue(), 2, 2, runAfter, 15))).isEqualTo(15);
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 15, JobState.FAILED, 5));
    JobInfo retried =
        api().lookup(ids, false).values().stream()
            .filter(job -> job.state() == JobState.PENDING)
            .findFirst()
            .orElseThrow();
    assertThat(retried.attemptsRemaining()).isEqualTo(2);
    assertThat(retried.attemptsAllowed()).isEqualTo(1);
    assertThat(retried.runAfter()).isEqualTo(runAfter);
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(dequeue(100)).as("not before runAfter").isEmpty();

    clock().advance(Duration.ofSeconds(1));
    for (int round = 0; round < 2; round++) {
      List<JobDescriptor> claimed = ids(dequeue(100));
      assertThat(claimed).hasSize(15);
      ackFailed(claimed);
    }
    assertThat(dequeue(100)).isEmpty();
    assertThat(count(JobState.FAILED, 2)).isEqualTo(20);
  }

  @Test
  void retryFailedWithoutRunAfterMakesJobsDueNow() {
    failedJobs(3, 1);

    assertThat(api().retryFailed(new RetryFailedParams(queue(), 1, 1, null, 1000))).isEqualTo(3);

    assertThat(dequeue(10)).hasSize(3);
  }

  @Test
  void retryFailedMovesAtMostTheLimitAcrossShards() {
    List<JobDescriptor> ids = failedJobs(30, 1);
    assertThat(byShard(ids)).hasSize(2);

    assertThat(api().retryFailed(new RetryFailedParams(queue(), 1, 1, null, 25))).isEqualTo(25);
    assertThat(api().retryFailed(new RetryFailedParams(queue(), 1, 1, null, 25))).isEqualTo(5);
    assertThat(api().retryFailed(new RetryFailedParams(queue(), 1, 1, null, 25))).isZero();
    assertThat(count(JobState.PENDING)).isEqualTo(30);
  }

  @Test
  void deleteJobsScenario() {
    failedJobs(10, 2);
    assertThat(api().deleteJobs(DeleteJobsParams.of(queue(), JobState.PENDING))).isZero();
    assertThat(api().deleteJobs(new DeleteJobsParams(queue(), JobState.FAILED, 2, null, 5)))
        .isEqualTo(5);
    assertThat(count(JobState.FAILED, 2)).isEqualTo(5);

    List<JobDescriptor> pending =
        enqueueOneByOne(Jobs.jobs(10, i -> aJob("pending_" + i).withPriority(2)));
    assertThat(
            api()
                .deleteJobs(
                    new DeleteJobsParams(queue(), JobState.PENDING, 2, ".*pending_1.*", 1000)))
        .isEqualTo(1);
    assertThat(lookup(pending.get(1))).isNull();
    assertThat(count(JobState.PENDING, 2)).isEqualTo(9);
    assertThat(count(JobState.FAILED, 2)).isEqualTo(5);
  }

  @Test
  void deleteJobsRemovesJobsOfEveryStateIncludingFuture() {
    Instant future = clock().instant().plusSeconds(3600);
    List<JobDescriptor> ids = enqueue(aJob("later").withRunAfter(future), aJob("now"));
    dequeue(1);

    assertThat(api().deleteJobs(new DeleteJobsParams(queue(), JobState.PENDING, 1, null, 10)))
        .isEqualTo(1);
    assertThat(api().deleteJobs(new DeleteJobsParams(queue(), JobState.IN_PROGRESS, 1, null, 10)))
        .isEqualTo(1);

    assertThat(api().lookup(ids, false)).isEmpty();
    assertThat(snapshot()).isEmpty();
  }

  @Test
  void retryAndDeleteOnAQueueThatDoesNotExistFail() {
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().retryFailed(RetryFailedParams.of("no_such_queue")),
        "no_such_queue");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().deleteJobs(DeleteJobsParams.of("no_such_queue", JobState.FAILED)),
        "no_such_queue");
  }

  @Test
  void retryJobMovesExactlyOneFailedJobBackToPendingDueNow() {
    List<JobDescriptor> ids = failedJobs(3, 2);
    clock().advance(Duration.ofMinutes(5));
    JobDescriptor chosen = ids.get(1);

    assertThat(api().retryJob(chosen, 3)).isTrue();

    JobInfo retried = lookup(chosen);
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(3);
    assertThat(retried.runAfter()).isEqualTo(clock().instant());
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(Jobs.text(retried.body())).isEqualTo("failed_1");
    assertThat(lookup(ids.get(0)).state()).isEqualTo(JobState.FAILED);
    assertThat(lookup(ids.get(2)).state()).isEqualTo(JobState.FAILED);
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 1, JobState.FAILED, 2));
    assertThat(api().retryJob(chosen, 1)).as("no longer FAILED").isFalse();
    assertThat(ids(dequeue(10))).containsExactly(chosen);
  }

  @Test
  void retryJobLeavesJobsThatAreNotFailedOrDoNotExistAlone() {
    List<JobDescriptor> succeeded = enqueue(aJob("done"));
    ackSucceeded(ids(dequeue(1)));
    List<JobDescriptor> ids = enqueue(aJob("pending"), aJob("claimed"));
    JobDescriptor claimed = ids(dequeue(1)).get(0);
    JobDescriptor pending = ids.stream().filter(j -> !j.equals(claimed)).findFirst().orElseThrow();

    assertThat(api().retryJob(pending, 1)).isFalse();
    assertThat(api().retryJob(claimed, 1)).isFalse();
    assertThat(api().retryJob(succeeded.get(0), 1)).isFalse();
    JobDescriptor missing =
        new JobDescriptor(queue(), pending.shard(), 1, pending.localId() + 1000);
    assertThat(api().retryJob(missing, 1)).isFalse();
    JobDescriptor unknownShard = new JobDescriptor(queue(), "no_such_shard", 1, 1);
    assertThat(api().retryJob(unknownShard, 1)).isFalse();

    assertThat(lookup(pending).state()).isEqualTo(JobState.PENDING);
    assertThat(lookup(claimed).state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(lookup(succeeded.get(0)).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void retryJobRejectsAnUnknownQueueAndBadAttempts() {
    JobDescriptor failed = failedJobs(1, 1).get(0);
    JobDescriptor elsewhere =
        new JobDescriptor("never_created", failed.shard(), 1, failed.localId());

    assertFails(ErrorCode.QUEUE_NOT_FOUND, () -> api().retryJob(elsewhere, 1), "never_created");
    assertInvalid(() -> api().retryJob(failed, 0), "attempts", ">= 1");
    assertThat(lookup(failed).state()).isEqualTo(JobState.FAILED);
  }

  /** Enqueues n single-attempt jobs of the priority and fails them all. */
  private List<JobDescriptor> failedJobs(int n, int priority) {
    List<JobDescriptor> ids =
        enqueueOneByOne(
            Jobs.jobs(n, i -> aJob("failed_" + i).withPriority(priority).withAttemptsAllowed(1)));
    List<JobDescriptor> claimed = ids(dequeue(n));
    assertThat(claimed).hasSize(n);
    ackFailed(claimed);
    return ids;
  }
}
