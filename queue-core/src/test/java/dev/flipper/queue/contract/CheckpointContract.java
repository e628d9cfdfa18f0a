package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.testing.Jobs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * checkpointJobs (docs/queue.md, "Operations"); PinLater's testCheckpointJob*. Fix over the
 * original: the source must equal the claim's source exactly (no substring match).
 */
abstract class CheckpointContract extends ContractArea {

  @Test
  void aHeartbeatKeepsTheJobInProgressAndMovesRunAfterAndUpdatedAt() {
    JobDescriptor id = claimOne(aJob("cp_body"));
    JobInfo before = lookup(id);
    clock().advance(Duration.ofSeconds(1));

    checkpoint(CheckpointParams.heartbeat(id));

    JobInfo after = lookup(id);
    assertThat(after.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(after.runAfter()).isEqualTo(clock().instant()).isAfter(before.runAfter());
    assertThat(after.updatedAt()).isEqualTo(clock().instant());
    assertThat(Jobs.text(after.body())).isEqualTo("cp_body");
    assertThat(after.claimDescriptor()).isEqualTo(before.claimDescriptor()).contains(SOURCE);
    assertThat(after.attemptsRemaining()).isEqualTo(before.attemptsRemaining());
  }

  @Test
  void aHeartbeatRestartsTheClaimTimeOut() {
    JobDescriptor id = claimOne(aJob());
    QueueMonitor monitor = fx().monitor().claimTimeout(Duration.ofMinutes(10)).build();

    clock().advance(Duration.ofMinutes(6));
    checkpoint(CheckpointParams.heartbeat(id));
    clock().advance(Duration.ofMinutes(6));
    monitor.runOnce();
    assertThat(lookup(id).state())
        .as("12 min after the claim, 6 after the heartbeat")
        .isEqualTo(JobState.IN_PROGRESS);

    clock().advance(Duration.ofMinutes(5));
    monitor.runOnce();
    assertThat(lookup(id).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void aNewBodyReplacesTheBody() {
    JobDescriptor id = claimOne(aJob("old_body"));

    checkpoint(
        new CheckpointParams(
            id, "new_body".getBytes(StandardCharsets.UTF_8), false, null, null, null));

    assertThat(Jobs.text(lookup(id).body())).isEqualTo("new_body");
    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);
  }

  @Test
  void moveToPendingReleasesTheClaimWithoutUsingAnAttempt() {
    JobDescriptor id = claimOne(aJob("chained"));

    checkpoint(new CheckpointParams(id, null, true, null, null, null));

    JobInfo job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.PENDING);
    assertThat(job.claimDescriptor()).isNull();
    assertThat(job.attemptsRemaining()).isEqualTo(2);
    assertThat(Jobs.text(job.body())).isEqualTo("chained");
    assertThat(ids(dequeue(1))).containsExactly(id);
  }

  @Test
  void moveToPendingWithAFutureRunAfterSchedulesTheNextRun() {
    JobDescriptor id = claimOne(aJob("cron"));
    Instant next = clock().instant().plus(Duration.ofHours(1));

    checkpoint(new CheckpointParams(id, null, true, next, null, null));

    assertThat(lookup(id).runAfter()).isEqualTo(next);
    assertThat(dequeue(1)).isEmpty();
    clock().advance(Duration.ofHours(1));
    assertThat(ids(dequeue(1))).containsExactly(id);
  }

  @Test
  void aRunAfterIsStoredExactly() {
    JobDescriptor id = claimOne(aJob());
    Instant runAfter = clock().instant().plusMillis(12_345);

    checkpoint(new CheckpointParams(id, null, false, runAfter, null, null));

    assertThat(lookup(id).runAfter()).isEqualTo(runAfter);
    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);
  }

  @Test
  void attemptsAllowedSetsBothAllowedAndRemaining() {
    JobDescriptor id = claimOne(aJob());

    checkpoint(new CheckpointParams(id, null, false, null, 5, null));

    JobInfo job = lookup(id);
    assertThat(job.attemptsAllowed()).isEqualTo(5);
    assertThat(job.attemptsRemaining()).isEqualTo(5);
    assertThat(job.customStatus()).isEmpty();
  }

  @Test
  void prependedCustomStatusGoesInFront() {
    JobDescriptor id = claimOne(aJob());

    checkpoint(new CheckpointParams(id, null, false, null, null, "new_custom_status1\n"));
    checkpoint(new CheckpointParams(id, null, false, null, null, "new_custom_status2\n"));

    assertThat(lookup(id).customStatus()).isEqualTo("new_custom_status2\nnew_custom_status1\n");
  }

  @Test
  void prependedCustomStatusIsTruncatedTo5000Characters() {
    JobDescriptor id = claimOne(aJob().withCustomStatus("tail"));

    checkpoint(new CheckpointParams(id, null, false, null, null, "x".repeat(4998)));

    assertThat(lookup(id).customStatus()).isEqualTo("x".repeat(4998) + "ta");
  }

  @Test
  void aCheckpointOfAJobThatIsNotInProgressIsASilentNoOp() {
    List<JobDescriptor> ids = enqueue(aJob("pending"), aJob("done"));
    JobDescriptor pending = ids.get(0);
    api().dequeue(DequeueParams.of(queue(), 2, SOURCE));
    ackFailed(List.of(pending)); // PENDING again
    ackSucceeded(List.of(ids.get(1)));
    JobInfo pendingBefore = lookup(pending);
    JobInfo doneBefore = lookup(ids.get(1));
    clock().advance(Duration.ofSeconds(1));

    for (JobDescriptor id : ids) {
      checkpoint(
          new CheckpointParams(id, "changed".getBytes(StandardCharsets.UTF_8), true, null, 7, "x"));
    }

    assertThat(lookup(pending)).usingRecursiveComparison().isEqualTo(pendingBefore);
    assertThat(lookup(ids.get(1))).usingRecursiveComparison().isEqualTo(doneBefore);
  }

  @Test
  void aCheckpointByAnotherSourceIsASilentNoOp() {
    JobDescriptor id = claimOne(aJob("mine"));
    JobInfo before = lookup(id);
    clock().advance(Duration.ofSeconds(1));
    CheckpointParams takeOver =
        new CheckpointParams(id, "theirs".getBytes(StandardCharsets.UTF_8), true, null, 9, "x");

    api().checkpoint(queue(), "really_slow_worker", List.of(takeOver));
    api().checkpoint(queue(), "test", List.of(takeOver)); // a substring of the claim's source
    api().checkpoint(queue(), SOURCE + "-2", List.of(takeOver));

    assertThat(lookup(id)).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  void aCheckpointForAQueueThatDoesNotExistFails() {
    JobDescriptor ghost = JobDescriptor.parse("no_such_queue:s1:p1:1");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND,
        () -> api().checkpoint("no_such_queue", SOURCE, List.of(CheckpointParams.heartbeat(ghost))),
        "no_such_queue");
  }

  private JobDescriptor claimOne(NewJob job) {
    JobDescriptor id = enqueue(job).get(0);
    assertThat(ids(dequeue(1))).containsExactly(id);
    return id;
  }

  private void checkpoint(CheckpointParams params) {
    api().checkpoint(queue(), SOURCE, List.of(params));
  }
}
