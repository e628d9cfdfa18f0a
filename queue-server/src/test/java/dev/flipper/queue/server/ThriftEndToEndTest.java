package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DeleteJobsParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.RetryFailedParams;
import dev.flipper.queue.ScanPage;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.spi.QueueStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue's behaviour as a client sees it through Thrift over TCP (§18), per backend. The storage contract
 * (queue-core's QueueContractTest) drives QueueService directly, so it cannot run through the client; this
 * suite checks the same behaviours end to end, per backend subclass.
 */
abstract class ThriftEndToEndTest {
  static final String QUEUE = "e2e_q";

  /** A fresh store with shards "1" and "2" over isolated storage. */
  protected abstract QueueStore openStore();

  /** Drops the storage made by {@link #openStore}; the store is already closed. */
  protected void dropStorage() {}

  private TestServer server;
  QueueClient client;

  @BeforeEach
  void start() {
    server = TestServer.over(openStore(), b -> b);
    client = QueueClient.builder().server("127.0.0.1", server.port()).source("e2e-worker:host1").build();
    client.createQueue(QUEUE);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
    dropStorage();
  }

  @Test
  void queueAdministration() {
    client.createQueue(QUEUE); // idempotent
    assertCode(() -> client.createQueue("no spaces"), ErrorCode.QUEUE_NAME_INVALID);
    client.createQueue("second_q");
    assertThat(client.queueNames()).contains(QUEUE, "second_q");
    assertCode(() -> client.deleteQueue("second_q", "nope"), ErrorCode.PASSWORD_INVALID);
    client.deleteQueue("second_q", TestServer.ADMIN_PASSWORD);
    client.deleteQueue("second_q", TestServer.ADMIN_PASSWORD);
    assertThat(client.queueNames()).contains(QUEUE).doesNotContain("second_q");
  }

  @Test
  void enqueueReturnsOneDescriptorPerJobInOrderAndStoresTheJobAsGiven() {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      jobs.add(NewJob.of("body-" + i).withPriority(1 + i % 3).withAttemptsAllowed(4).withCustomStatus("s" + i));
    }
    List<JobDescriptor> ids = client.enqueue(QUEUE, jobs);

    assertThat(ids).hasSize(20).doesNotHaveDuplicates();
    Map<JobDescriptor, JobInfo> infos = client.lookup(ids, true);
    for (int i = 0; i < 20; i++) {
      JobInfo info = infos.get(ids.get(i));
      assertThat(ids.get(i).queue()).isEqualTo(QUEUE);
      assertThat(ids.get(i).priority()).isEqualTo(1 + i % 3);
      assertThat(new String(info.body(), StandardCharsets.UTF_8)).isEqualTo("body-" + i);
      assertThat(info.state()).isEqualTo(JobState.PENDING);
      assertThat(info.attemptsAllowed()).isEqualTo(4);
      assertThat(info.attemptsRemaining()).isEqualTo(4);
      assertThat(info.customStatus()).isEqualTo("s" + i);
      assertThat(info.claimDescriptor()).isNull();
    }
    assertCode(() -> client.enqueue("missing_q", NewJob.of("x")), ErrorCode.QUEUE_NOT_FOUND);
    assertCode(() -> client.enqueue(QUEUE, NewJob.of("x").withPriority(4)), ErrorCode.PRIORITY_NOT_SUPPORTED);
    assertCode(() -> client.enqueue(QUEUE, NewJob.of("x").withPriority(0)), ErrorCode.PRIORITY_NOT_SUPPORTED);
  }

  @Test
  void operationsOnAQueueThatDoesNotExistFailWithQueueNotFound() {
    JobDescriptor stranger = new JobDescriptor("missing_q", "1", 1, 1);
    assertCode(() -> client.dequeue("missing_q", 1), ErrorCode.QUEUE_NOT_FOUND);
    assertCode(() -> client.ack(new AckParams("missing_q", List.of(AckParams.Item.of(stranger)), List.of())),
        ErrorCode.QUEUE_NOT_FOUND);
    assertCode(() -> client.checkpoint("missing_q", List.of(CheckpointParams.heartbeat(stranger))),
        ErrorCode.QUEUE_NOT_FOUND);
  }

  @Test
  void bodiesAreBinarySafe() {
    byte[] body = new byte[256];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) i;
    }
    JobDescriptor id = client.enqueue(QUEUE, NewJob.of(body));
    assertThat(client.dequeue(QUEUE, 1)).singleElement().satisfies(job -> assertThat(job.body()).isEqualTo(body));
    assertThat(client.lookup(List.of(id), true).get(id).body()).isEqualTo(body);
  }

  @Test
  void dequeueTakesPriorityOneFirstHonoursLimitAndRunAfterAndClaimsForTheSource() {
    JobDescriptor later = client.enqueue(QUEUE, NewJob.of("later").withRunAfter(Instant.now().plusSeconds(3600)));
    List<JobDescriptor> low = client.enqueue(QUEUE, List.of(NewJob.of("p3").withPriority(3), NewJob.of("p3")
        .withPriority(3)));
    List<JobDescriptor> high = client.enqueue(QUEUE, List.of(NewJob.of("p1"), NewJob.of("p1"), NewJob.of("p1")));

    List<DequeuedJob> dry = client.dequeue(DequeueParams.of(QUEUE, 10, "x").withDryRun(true));
    assertThat(dry).hasSize(5);
    assertThat(client.count(CountParams.of(QUEUE, JobState.PENDING))).isEqualTo(5);

    List<DequeuedJob> first = client.dequeue(QUEUE, 3);
    assertThat(first).extracting(DequeuedJob::descriptor).containsExactlyInAnyOrderElementsOf(high);
    assertThat(first).allSatisfy(job -> {
      assertThat(job.attemptsAllowed()).isEqualTo(2);
      assertThat(job.attemptsRemaining()).isEqualTo(2);
    });
    JobInfo claimed = client.lookup(List.of(high.get(0)), false).get(high.get(0));
    assertThat(claimed.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(claimed.claimDescriptor()).contains("e2e-worker:host1");

    assertThat(client.dequeue(QUEUE, 10)).extracting(DequeuedJob::descriptor).containsExactlyInAnyOrderElementsOf(low);
    assertThat(client.dequeue(QUEUE, 10)).isEmpty();
    assertThat(client.lookup(List.of(later), false).get(later).state()).isEqualTo(JobState.PENDING);
    assertCode(() -> client.dequeue(QUEUE, 0), ErrorCode.UNKNOWN);
  }

  @Test
  void acksMoveJobsOnAndFailuresRetryUntilTheAttemptsAreUsed() {
    JobDescriptor ok = client.enqueue(QUEUE, NewJob.of("ok"));
    JobDescriptor flaky = client.enqueue(QUEUE, NewJob.of("flaky").withAttemptsAllowed(2));
    client.dequeue(QUEUE, 2);

    client.ack(new AckParams(QUEUE, List.of(new AckParams.Item(ok, "done", Duration.ZERO)),
        List.of(new AckParams.Item(flaky, "oops", Duration.ofHours(1)))));

    JobInfo okInfo = client.lookup(List.of(ok), false).get(ok);
    assertThat(okInfo.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(okInfo.customStatus()).contains("done");
    JobInfo flakyInfo = client.lookup(List.of(flaky), false).get(flaky);
    assertThat(flakyInfo.state()).isEqualTo(JobState.PENDING);
    assertThat(flakyInfo.attemptsRemaining()).isEqualTo(1);
    assertThat(flakyInfo.runAfter()).isAfter(Instant.now().plus(Duration.ofMinutes(59)));
    assertThat(client.dequeue(QUEUE, 10)).isEmpty();

    // Piggy-backed ack on a dequeue, and the final failure.
    JobDescriptor last = client.enqueue(QUEUE, NewJob.of("last").withAttemptsAllowed(1));
    assertThat(client.dequeue(QUEUE, 1)).extracting(DequeuedJob::descriptor).containsExactly(last);
    List<DequeuedJob> none = client.dequeue(DequeueParams.of(QUEUE, 1, "x")
        .withAck(new AckParams(QUEUE, List.of(), List.of(AckParams.Item.of(last)))));
    assertThat(none).isEmpty();
    JobInfo lastInfo = client.lookup(List.of(last), false).get(last);
    assertThat(lastInfo.state()).isEqualTo(JobState.FAILED);
    assertThat(lastInfo.attemptsRemaining()).isZero();

    client.ack(new AckParams(QUEUE, List.of(AckParams.Item.of(last)), List.of())); // late duplicate: no-op
    assertThat(client.lookup(List.of(last), false).get(last).state()).isEqualTo(JobState.FAILED);
  }

  @Test
  void checkpointsApplyOnlyForTheClaimingSource() {
    JobDescriptor id = client.enqueue(QUEUE, NewJob.of("v1"));
    client.dequeue(QUEUE, 1);
    try (QueueClient stranger = QueueClient.builder().server("127.0.0.1", server.port()).source("other:host9")
        .build()) {
      stranger.checkpoint(QUEUE, List.of(new CheckpointParams(id, "evil".getBytes(StandardCharsets.UTF_8), true,
          null, null, null)));
    }
    assertThat(client.lookup(List.of(id), true).get(id).state()).isEqualTo(JobState.IN_PROGRESS);

    client.checkpoint(QUEUE, List.of(new CheckpointParams(id, "v2".getBytes(StandardCharsets.UTF_8), false, null,
        5, "a\n")));
    client.checkpoint(QUEUE, List.of(new CheckpointParams(id, null, true, null, null, "b\n")));

    JobInfo info = client.lookup(List.of(id), true).get(id);
    assertThat(info.state()).isEqualTo(JobState.PENDING);
    assertThat(new String(info.body(), StandardCharsets.UTF_8)).isEqualTo("v2");
    assertThat(info.attemptsAllowed()).isEqualTo(5);
    assertThat(info.attemptsRemaining()).isEqualTo(5);
    assertThat(info.customStatus()).startsWith("b\na\n");
    assertThat(info.claimDescriptor()).isNull();
  }

  @Test
  void lookupCountScanRetryAndDelete() {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      jobs.add(NewJob.of("job_body_" + i).withRunAfter(Instant.now().minusSeconds(100 - i)));
    }
    List<JobDescriptor> ids = client.enqueue(QUEUE, jobs);
    client.enqueue(QUEUE, NewJob.of("future").withPriority(2).withRunAfter(Instant.now().plusSeconds(3600)));

    JobDescriptor missing = new JobDescriptor(QUEUE, "1", 1, 999_999);
    Map<JobDescriptor, JobInfo> found = client.lookup(List.of(ids.get(0), missing), false);
    assertThat(found).containsOnlyKeys(ids.get(0));
    assertThat(found.get(ids.get(0)).body()).isNull();

    assertThat(client.count(CountParams.of(QUEUE, JobState.PENDING))).isEqualTo(20);
    assertThat(client.count(new CountParams(QUEUE, JobState.PENDING, null, true, null))).isEqualTo(1);
    assertThat(client.count(new CountParams(QUEUE, JobState.PENDING, 2, false, null))).isZero();
    assertThat(client.count(new CountParams(QUEUE, JobState.PENDING, null, false, "job_body_1.*"))).isEqualTo(11);

    Set<JobDescriptor> scanned = new HashSet<>();
    ScanPage page = client.scan(new ScanParams(QUEUE, JobState.PENDING, null, false, ScanParams.START, 8, null));
    Instant previous = Instant.MAX;
    while (true) {
      for (JobInfo info : page.jobs()) {
        assertThat(info.runAfter()).isBeforeOrEqualTo(previous);
        previous = info.runAfter();
        assertThat(scanned.add(info.descriptor())).isTrue();
      }
      if (!page.hasMore()) {
        break;
      }
      page = client.scan(new ScanParams(QUEUE, JobState.PENDING, null, false, page.continuation(), 8, null));
    }
    assertThat(scanned).containsExactlyInAnyOrderElementsOf(ids);
    assertCode(() -> client.scan(new ScanParams(QUEUE, JobState.PENDING, null, false, "garbage", 8, null)),
        ErrorCode.CONTINUATION_INVALID);

    List<DequeuedJob> taken = client.dequeue(QUEUE, 5);
    List<AckParams.Item> failures = taken.stream().map(job -> AckParams.Item.of(job.descriptor())).toList();
    client.ack(new AckParams(QUEUE, List.of(), failures));
    client.dequeue(QUEUE, 20); // the 5 retried jobs come back among these
    client.ack(new AckParams(QUEUE, List.of(), failures));
    assertThat(client.count(CountParams.of(QUEUE, JobState.FAILED))).isEqualTo(5);

    assertThat(client.retryFailed(new RetryFailedParams(QUEUE, 1, 3, null, 2))).isEqualTo(2);
    assertThat(client.retryFailed(RetryFailedParams.of(QUEUE))).isEqualTo(3);
    assertThat(client.retryFailed(RetryFailedParams.of(QUEUE))).isZero();

    assertThat(client.deleteJobs(new DeleteJobsParams(QUEUE, JobState.PENDING, 1, "job_body_1.*", 1000)))
        .isBetween(1, 11);
    assertThat(client.lookup(ids, false).size()).isLessThan(20);
  }

  static void assertCode(Runnable call, ErrorCode code) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(QueueClientException.class,
        e -> assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code));
  }
}
