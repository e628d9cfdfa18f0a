package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Waiting dequeues (docs/queue.md "Instant pickup"): a dequeue that asks for a wait holds until a
 * job is enqueued, one that asks for none answers at once as PinLater's did. The wait asked for is
 * the longest allowed, so an answer well within it came from the enqueue, not from the wait ending.
 */
abstract class WaitingDequeueContract extends ContractArea {
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

  private DequeueParams waiting(int limit) {
    return DequeueParams.of(queue(), limit, SOURCE).withMaxWait(DequeueParams.MAX_WAIT);
  }

  @Test
  void aWaitingDequeueReturnsTheJobEnqueuedWhileItWaits() throws Exception {
    DequeueParams params = waiting(5); // creates the queue, on this thread
    CompletableFuture<List<DequeuedJob>> dequeue =
        CompletableFuture.supplyAsync(() -> api().dequeue(params));
    assertThat(dequeue).isNotDone(); // nothing to claim yet: it waits

    List<JobDescriptor> enqueued = enqueue(aJob("wake up"));

    List<DequeuedJob> jobs = dequeue.get(ANSWER_WITHIN.toSeconds(), TimeUnit.SECONDS);
    assertThat(ids(jobs)).isEqualTo(enqueued); // created after the call began: it waited for it
  }

  @Test
  void aDequeueThatAsksForNoWaitAnswersAtOnceWhenNothingIsReady() {
    assertThat(dequeue(5)).isEmpty();
    assertThat(api().dequeue(DequeueParams.of(queue(), 5, SOURCE).withMaxWait(Duration.ZERO)))
        .isEmpty();
  }

  @Test
  void aDryRunNeverWaits() {
    assertThat(api().dequeue(waiting(5).withDryRun(true))).isEmpty();
  }

  @Test
  void aWaitingDequeueAppliesItsAcksBeforeWaiting() throws Exception {
    JobDescriptor first = enqueue(aJob("first")).get(0);
    assertThat(ids(dequeue(1))).containsExactly(first);
    AckParams ack = new AckParams(queue(), items(List.of(first), Duration.ZERO), List.of());
    DequeueParams params = waiting(1).withAck(ack);
    CompletableFuture<List<DequeuedJob>> dequeue =
        CompletableFuture.supplyAsync(() -> api().dequeue(params));

    await().atMost(ANSWER_WITHIN).until(() -> count(JobState.SUCCEEDED) == 1);
    assertThat(dequeue).isNotDone();
    JobDescriptor second = enqueue(aJob("second")).get(0);
    assertThat(ids(dequeue.get(ANSWER_WITHIN.toSeconds(), TimeUnit.SECONDS)))
        .containsExactly(second);
  }
}
