package dev.flipper.queue.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** One builder gives an embedding application the queue, its in-process workers and the monitor. */
class EmbeddedQueueTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void workersRunTheHandledQueuesJobsAndTheMonitorTimesOutLostClaims() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    MutableClock clock = MutableClock.startingAt(Instant.parse("2026-03-01T10:00:00Z"));
    Set<String> sent = ConcurrentHashMap.newKeySet();
    try (EmbeddedQueue jobs =
        EmbeddedQueue.builder(store)
            .service(s -> s.priorityLevels(2).clock(clock))
            .worker(
                "mail",
                job -> sent.add(job.bodyAsString()),
                w -> w.concurrency(2).pollInterval(Duration.ofMillis(10)))
            .monitor(
                m ->
                    m.claimTimeout(Duration.ofMinutes(5))
                        .interval(Duration.ofMillis(20))
                        .clock(clock))
            .build()
            .start()) {
      assertThat(jobs.queue().queueNames()).containsExactly("mail"); // created by start()

      jobs.queue().enqueue("mail", List.of(NewJob.of("welcome ada"), NewJob.of("welcome bob")));
      await().atMost(WAIT).until(() -> sent.size() == 2);
      assertThat(sent).containsExactlyInAnyOrder("welcome ada", "welcome bob");
      await().atMost(WAIT).until(() -> jobs.worker("mail").stats().jobsSucceeded() == 2);

      // A job claimed by a process that then died: the monitor gives it back after the claim
      // time-out.
      jobs.queue().createQueue("reports");
      JobDescriptor lost = jobs.queue().enqueue("reports", List.of(NewJob.of("monthly"))).get(0);
      assertThat(jobs.queue().dequeue(DequeueParams.of("reports", 1, "crashed-process")))
          .hasSize(1);
      clock.advance(Duration.ofMinutes(6));
      await()
          .atMost(WAIT)
          .until(
              () ->
                  jobs.queue().lookup(List.of(lost), false).get(lost).state() == JobState.PENDING);

      assertThatThrownBy(() -> jobs.worker("reports"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no worker handles queue 'reports'");
    }
  }

  @Test
  void twoWorkersForOneQueueAreRefused() {
    EmbeddedQueue.Builder builder =
        EmbeddedQueue.builder(InMemoryQueueStore.withShards("1")).worker("mail", job -> {});
    assertThatThrownBy(() -> builder.worker("mail", job -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue 'mail' has two workers");
  }
}
