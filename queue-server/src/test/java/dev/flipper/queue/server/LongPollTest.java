package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Long-poll dequeue: waits for jobs without holding a worker thread. */
class LongPollTest {

  @Test
  void anEnqueueOnTheSameServerWakesAWaitingDequeue() throws Exception {
    try (TestServer server = TestServer.start(b -> b.longPollTimeout(Duration.ofSeconds(20)));
        QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(() -> client.dequeue("lp_q", 5));
      awaitWaiters(server, 1);

      client.enqueue("lp_q", NewJob.of("wake up"));

      List<DequeuedJob> jobs = waiting.get(5, TimeUnit.SECONDS);
      assertThat(jobs)
          .singleElement()
          .satisfies(job -> assertThat(new String(job.body())).isEqualTo("wake up"));
      assertThat(server.metrics.counter("lp_q_dequeue").getCount()).isEqualTo(1);
    }
  }

  @Test
  void jobsEnqueuedElsewhereAreFoundByTheBackOffRecheck() throws Exception {
    try (TestServer server = TestServer.start(b -> b.longPollTimeout(Duration.ofSeconds(20)));
        QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(() -> client.dequeue("lp_q", 5));
      awaitWaiters(server, 1);

      server.service.enqueue(
          "lp_q", List.of(NewJob.of("from elsewhere"))); // not through this server: no signal

      assertThat(waiting.get(10, TimeUnit.SECONDS)).hasSize(1);
    }
  }

  @Test
  void answersEmptyWhenNothingCameWithinTheWait() throws Exception {
    try (TestServer server = TestServer.start(b -> b.longPollTimeout(Duration.ofMillis(300)));
        QueueClient client = server.client()) {
      client.createQueue("lp_q");
      assertThat(client.dequeue("lp_q", 5)).isEmpty();
      assertThat(server.server.isRunning()).isTrue();
    }
  }

  @Test
  void waitingDequeuesHoldNoWorkerThread() throws Exception {
    try (TestServer server =
            TestServer.start(b -> b.longPollTimeout(Duration.ofSeconds(20)).workerThreads(2));
        QueueClient client =
            QueueClient.builder()
                .server("127.0.0.1", server.port())
                .maxConnectionsPerServer(10)
                .build()) {
      client.createQueue("lp_q");
      List<CompletableFuture<List<DequeuedJob>>> waiting = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        waiting.add(CompletableFuture.supplyAsync(() -> client.dequeue("lp_q", 1)));
      }
      awaitWaiters(server, 6);

      assertThat(client.queueNames()).containsExactly("lp_q"); // answered by one of the 2 workers

      client.enqueue("lp_q", RateLimitTest.jobs(6));
      for (CompletableFuture<List<DequeuedJob>> each : waiting) {
        assertThat(each.get(10, TimeUnit.SECONDS)).hasSize(1);
      }
    }
  }

  @Test
  void closingReleasesWaitingDequeuesWithEmptyAnswers() throws Exception {
    TestServer server = TestServer.start(b -> b.longPollTimeout(Duration.ofSeconds(60)));
    try (QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(() -> client.dequeue("lp_q", 5));
      awaitWaiters(server, 1);

      server.close();

      assertThat(waiting.get(5, TimeUnit.SECONDS)).isEmpty();
    }
  }

  @Test
  void aWaitAskedForInTheRequestIsHeldOnADefaultServerUntilAnEnqueue() throws Exception {
    try (TestServer server = TestServer.start(b -> b); // longPollTimeout 0, PinLater's default
        QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(
              () ->
                  client.dequeue(
                      DequeueParams.of("lp_q", 5, "flipper").withMaxWait(Duration.ofSeconds(30))));
      awaitWaiters(server, 1);

      client.enqueue("lp_q", NewJob.of("wake up"));

      assertThat(waiting.get(5, TimeUnit.SECONDS)).hasSize(1);
    }
  }

  @Test
  void aDequeueWithoutAWaitAnswersAtOnceOnADefaultServer() {
    try (TestServer server = TestServer.start(b -> b);
        QueueClient client = server.client()) {
      client.createQueue("lp_q");

      assertThat(client.dequeue("lp_q", 5)).isEmpty(); // as PinLater: no field, no wait
      assertThat(server.metrics.getGauges().get("PinLaterService.long_poll_waiting").getValue())
          .isEqualTo(0);
    }
  }

  @Test
  void anAskedWaitIsShortenedToHalfTheIdleTimeout() throws Exception {
    assertThat(QueueServer.longestDequeueHold(Duration.ofMinutes(5)))
        .isEqualTo(DequeueParams.MAX_WAIT);
    try (TestServer server = TestServer.start(b -> b.idleTimeout(Duration.ofMillis(600)));
        QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(
              () ->
                  client.dequeue(
                      DequeueParams.of("lp_q", 5, "flipper").withMaxWait(Duration.ofSeconds(30))));

      // Held for 300 ms, not 30 s, and answered before the connection counts as idle.
      assertThat(waiting.get(10, TimeUnit.SECONDS)).isEmpty();
    }
  }

  @Test
  void closingReleasesAWaitAskedForInTheRequest() throws Exception {
    TestServer server = TestServer.start(b -> b);
    try (QueueClient client = server.client()) {
      client.createQueue("lp_q");
      CompletableFuture<List<DequeuedJob>> waiting =
          CompletableFuture.supplyAsync(
              () ->
                  client.dequeue(
                      DequeueParams.of("lp_q", 5, "flipper").withMaxWait(Duration.ofSeconds(30))));
      awaitWaiters(server, 1);

      server.close();

      assertThat(waiting.get(5, TimeUnit.SECONDS)).isEmpty();
    }
  }

  @Test
  void aWaitLongerThanTheProtocolAllowsIsRefused() {
    try (TestServer server = TestServer.start(b -> b);
        QueueClient client = server.client()) {
      client.createQueue("lp_q");

      assertThatThrownBy(
              () ->
                  client.dequeue(
                      DequeueParams.of("lp_q", 5, "flipper").withMaxWait(Duration.ofSeconds(31))))
          .hasMessageContaining("dequeue wait of queue lp_q must be 0..30000 ms, was 31000 ms");
    }
  }

  private static void awaitWaiters(TestServer server, int count) {
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                server
                    .metrics
                    .getGauges()
                    .get("PinLaterService.long_poll_waiting")
                    .getValue()
                    .equals(count));
  }
}
