package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanParams;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets the right error code and a message that says what was wrong, and changes nothing:
 * every test starts from the same jobs (2 PENDING, 2 IN_PROGRESS, 1 SUCCEEDED, 1 FAILED) and checks
 * them after.
 */
abstract class BadInputContract extends ContractArea {
  private Map<JobState, Integer> before;
  private List<JobDescriptor> inProgress;

  @BeforeEach
  void someJobsInEveryState() {
    enqueue(aJob("ok").withAttemptsAllowed(1), aJob("bad").withAttemptsAllowed(1));
    List<JobDescriptor> done = ids(dequeue(2));
    ackSucceeded(done.subList(0, 1));
    ackFailed(done.subList(1, 2));
    enqueue(aJob("busy_1"), aJob("busy_2"));
    inProgress = new ArrayList<>(ids(dequeue(2)));
    enqueue(aJob("p1"), aJob("p2"));
    before = snapshot();
    assertThat(before)
        .isEqualTo(
            Map.of(
                JobState.PENDING,
                2,
                JobState.IN_PROGRESS,
                2,
                JobState.SUCCEEDED,
                1,
                JobState.FAILED,
                1));
  }

  private void assertNothingChanged() {
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void anOversizedBodyRejectsTheWholeEnqueue() {
    JobQueue small = fx().apiWith(b -> b.maxBodyBytes(10));

    assertFails(
        ErrorCode.ENQUEUE_REJECTED,
        () -> small.enqueue(queue(), List.of(aJob("fits"), NewJob.of(new byte[11]))),
        "job #1",
        "11 bytes",
        "10");

    assertNothingChanged();
    assertThat(small.enqueue(queue(), List.of(NewJob.of(new byte[10])))).hasSize(1);
  }

  @Test
  void enqueueArgumentErrors() {
    assertInvalid(() -> enqueue(aJob(), aJob().withAttemptsAllowed(0)), "attempts", ">= 1", "0");
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> enqueue(aJob(), aJob().withPriority(4)),
        "4",
        "1..3");
    assertFails(
        ErrorCode.QUEUE_NAME_INVALID, () -> api().enqueue("bad name", List.of(aJob())), "bad name");
    assertFails(
        ErrorCode.QUEUE_NAME_TOO_LONG,
        () -> api().enqueue("q".repeat(101), List.of(aJob())),
        "101");
    assertFails(
        ErrorCode.QUEUE_NOT_FOUND, () -> api().enqueue("unknown", List.of(aJob())), "unknown");
    assertInvalid(() -> api().enqueue(queue(), null), "required");
    assertNothingChanged();
  }

  @Test
  void dequeueArgumentErrorsDoNotApplyThePiggyBackedAck() {
    AckParams ack = new AckParams(queue(), items(inProgress, Duration.ZERO), List.of());
    DequeueParams valid = DequeueParams.of(queue(), 5, SOURCE).withAck(ack);

    assertInvalid(
        () -> api().dequeue(new DequeueParams(queue(), 0, SOURCE, false, 1.0, ack, null)),
        "limit",
        "0");
    assertInvalid(
        () -> api().dequeue(new DequeueParams(queue(), -1, SOURCE, false, 1.0, ack, null)),
        "limit",
        "-1");
    assertInvalid(() -> api().dequeue(valid.withCoverage(1.5)), "coverage", "1.5");
    assertInvalid(() -> api().dequeue(valid.withCoverage(-0.1)), "coverage");
    assertInvalid(() -> api().dequeue(valid.withCoverage(Double.NaN)), "coverage");
    assertInvalid(() -> api().dequeue(valid.withMaxWait(Duration.ofMillis(-1))), "wait", "-1 ms");
    assertInvalid(
        () -> api().dequeue(valid.withMaxWait(Duration.ofSeconds(31))), "wait", "0..30000 ms");
    assertInvalid(
        () -> api().dequeue(new DequeueParams(queue(), 5, " ", false, 1.0, ack, null)), "source");
    assertInvalid(
        () -> api().dequeue(new DequeueParams(queue(), 5, "s".repeat(201), false, 1.0, ack, null)),
        "source",
        "200");
    AckParams badAck =
        new AckParams(
            queue(),
            items(
                List.of(
                    inProgress.get(0), new JobDescriptor(queue(), inProgress.get(1).shard(), 9, 1)),
                Duration.ZERO),
            List.of());
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().dequeue(DequeueParams.of(queue(), 5, SOURCE).withAck(badAck)),
        "9");
    assertFails(
        ErrorCode.QUEUE_NAME_INVALID, () -> api().dequeue(DequeueParams.of("a-b", 5, SOURCE)));

    assertNothingChanged();
  }

  @Test
  void aMalformedDescriptorIsRejectedWithTheExpectedForm() {
    for (String bad :
        List.of(
            "",
            "q:s1:p1",
            "q:s1:p1:1:2",
            "q:s1:px:1",
            "q:s1:p1:x",
            ":s1:p1:1",
            "q:s:p1:1",
            "q:1:p1:1",
            "q:s1:1:1",
            "q:s1:p-1:1",
            "q:s1:p1:-1")) {
      assertInvalid(
          () -> JobDescriptor.parse(bad),
          "malformed job descriptor",
          "'" + bad + "'",
          "<queue>:s<shard>:p<priority>:<localId>");
    }
    assertInvalid(() -> JobDescriptor.parse(null), "malformed job descriptor");
  }

  @Test
  void ackArgumentErrorsApplyNoneOfTheAcks() {
    JobDescriptor badPriority = new JobDescriptor(queue(), inProgress.get(1).shard(), 0, 1);
    JobDescriptor otherQueue = new JobDescriptor("other", inProgress.get(1).shard(), 1, 1);

    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () ->
            api()
                .ack(
                    new AckParams(
                        queue(),
                        items(List.of(inProgress.get(0)), Duration.ZERO),
                        items(List.of(badPriority), Duration.ZERO))),
        "0");
    assertInvalid(
        () ->
            api()
                .ack(
                    new AckParams(
                        queue(),
                        items(List.of(inProgress.get(0), otherQueue), Duration.ZERO),
                        List.of())),
        "'other'");
    assertInvalid(
        () -> new AckParams.Item(inProgress.get(0), "", Duration.ofMillis(-1)),
        "retry delay",
        "-1");
    assertFails(
        ErrorCode.QUEUE_NAME_INVALID,
        () -> api().ack(new AckParams("bad queue", items(inProgress, Duration.ZERO), List.of())));

    assertNothingChanged();
  }

  @Test
  void checkpointArgumentErrorsApplyNoneOfTheCheckpoints() {
    CheckpointParams valid = new CheckpointParams(inProgress.get(0), null, true, null, null, null);
    CheckpointParams badPriority =
        CheckpointParams.heartbeat(new JobDescriptor(queue(), inProgress.get(1).shard(), 7, 1));
    CheckpointParams otherQueue =
        CheckpointParams.heartbeat(new JobDescriptor("other", inProgress.get(1).shard(), 1, 1));

    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().checkpoint(queue(), SOURCE, List.of(valid, badPriority)),
        "7");
    assertInvalid(() -> api().checkpoint(queue(), SOURCE, List.of(valid, otherQueue)), "'other'");
    assertInvalid(() -> api().checkpoint(queue(), "", List.of(valid)), "source");
    assertInvalid(
        () -> new CheckpointParams(inProgress.get(0), null, false, null, 0, null), "attempts");
    JobQueue small = fx().apiWith(b -> b.maxBodyBytes(4));
    assertFails(
        ErrorCode.ENQUEUE_REJECTED,
        () ->
            small.checkpoint(
                queue(),
                SOURCE,
                List.of(
                    new CheckpointParams(
                        inProgress.get(0),
                        "too long".getBytes(StandardCharsets.UTF_8),
                        true,
                        null,
                        null,
                        null))),
        "8 bytes",
        "4");

    assertNothingChanged();
  }

  @Test
  void readArgumentErrors() {
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().count(new CountParams(queue(), JobState.PENDING, 4, false, null)),
        "4");
    assertInvalid(
        () -> api().count(new CountParams(queue(), JobState.PENDING, null, false, "job_(")),
        "job_(",
        "regular expression");
    assertInvalid(() -> api().count(new CountParams(queue(), null, null, false, null)), "state");
    assertInvalid(
        () -> api().scan(new ScanParams(queue(), JobState.PENDING, null, false, "0", 0, null)),
        "limit",
        "10000");
    assertInvalid(
        () -> api().scan(new ScanParams(queue(), JobState.PENDING, null, false, "0", 10_001, null)),
        "limit",
        "10001");
    assertInvalid(
        () -> api().scan(new ScanParams(queue(), JobState.PENDING, null, false, "0", 10, "[")),
        "'['");
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().scan(new ScanParams(queue(), JobState.PENDING, 0, false, "0", 10, null)));
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () ->
            api()
                .lookup(
                    List.of(new JobDescriptor(queue(), inProgress.get(0).shard(), 5, 1)), false),
        "5");
    assertNothingChanged();
  }

  @Test
  void retryAndDeleteArgumentErrors() {
    assertInvalid(
        () -> api().retryFailed(new RetryFailedParams(queue(), 1, 1, null, 0)), "limit", "0");
    assertInvalid(
        () -> api().retryFailed(new RetryFailedParams(queue(), 1, 0, null, 10)), "attempts");
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().retryFailed(new RetryFailedParams(queue(), 4, 1, null, 10)));
    assertInvalid(
        () -> api().deleteJobs(new DeleteJobsParams(queue(), JobState.FAILED, 1, null, -1)),
        "limit",
        "-1");
    assertInvalid(
        () -> api().deleteJobs(new DeleteJobsParams(queue(), JobState.FAILED, 1, "(", 10)), "'('");
    assertInvalid(
        () -> api().deleteJobs(new DeleteJobsParams(queue(), null, 1, null, 10)), "state");
    assertFails(
        ErrorCode.PRIORITY_NOT_SUPPORTED,
        () -> api().deleteJobs(new DeleteJobsParams(queue(), JobState.PENDING, 0, null, 10)));
    assertNothingChanged();
  }
}
