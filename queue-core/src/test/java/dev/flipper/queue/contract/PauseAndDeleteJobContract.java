package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pause and resume (stored with the queue, so another server over the same storage sees it) and
 * deleting one job by descriptor: Flipper's admin additions, called on the service (the PinLater
 * API has neither).
 */
abstract class PauseAndDeleteJobContract extends ContractArea {

  @Test
  void aPausedQueueDequeuesNothingButTakesJobsUntilResumed() {
    enqueue(aJob("before"));
    QueueService service = fx().service();

    service.setPaused(queue(), true);
    enqueue(aJob("while paused"));

    assertThat(service.pausedQueues()).containsExactly(queue());
    assertThat(dequeue(10)).isEmpty();
    assertThat(dryRun(10)).isEmpty();
    assertThat(count(JobState.PENDING)).isEqualTo(2);

    service.setPaused(queue(), false);
    assertThat(service.pausedQueues()).isEmpty();
    assertThat(dequeue(10)).hasSize(2);
  }

  @Test
  void aPauseReachesAnotherServerWithinItsRefreshInterval() {
    enqueue(aJob("a"), aJob("b"));
    QueueService other =
        fx().serviceBuilder(fx().secondStore())
            .serverId("server-b")
            .pauseRefresh(Duration.ofSeconds(1))
            .build();
    assertThat(other.dequeue(DequeueParams.of(queue(), 1, SOURCE)))
        .hasSize(1); // reads "not paused"

    fx().service().setPaused(queue(), true);
    clock().advance(Duration.ofSeconds(1));

    assertThat(other.dequeue(DequeueParams.of(queue(), 1, SOURCE))).isEmpty();
    assertThat(other.pausedQueues()).containsExactly(queue());

    other.setPaused(queue(), false);
    clock().advance(Duration.ofSeconds(1));
    assertThat(dequeue(1)).hasSize(1);
  }

  @Test
  void pausingAnUnknownQueueFailsAndDeletingAQueueForgetsItsPause() {
    QueueService service = fx().service();
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND, () -> service.setPaused("never_created", true), "never_created");

    service.createQueue("short_lived");
    service.setPaused("short_lived", true);
    service.deleteQueue("short_lived", ContractFixture.ADMIN_PASSWORD);

    assertThat(service.pausedQueues()).doesNotContain("short_lived");
  }

  @Test
  void deleteJobRemovesOneJobInAnyStateAndReportsMissingOnes() {
    List<JobDescriptor> jobs = enqueue(aJob("pending"), aJob("claimed"), aJob("kept"));
    QueueService service = fx().service();
    JobDescriptor claimed = ids(dequeue(1)).get(0);
    JobDescriptor pending = jobs.stream().filter(j -> !j.equals(claimed)).findFirst().orElseThrow();

    assertThat(service.deleteJob(claimed)).isTrue();
    assertThat(service.deleteJob(pending)).isTrue();
    assertThat(service.deleteJob(pending)).isFalse();

    assertThat(lookup(claimed)).isNull();
    assertThat(lookup(pending)).isNull();
    assertThat(count(JobState.PENDING) + count(JobState.IN_PROGRESS)).isEqualTo(1);
    JobDescriptor elsewhere =
        new JobDescriptor("never_created", pending.shard(), 1, pending.localId());
    assertFails(ErrorCode.QUEUE_NOT_FOUND, () -> service.deleteJob(elsewhere), "never_created");
  }
}
