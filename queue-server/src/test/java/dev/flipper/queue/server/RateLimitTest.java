package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dequeue rate limits through the Thrift server (docs/thrift.md, "Dequeue rate limits"). */
class RateLimitTest {
  @TempDir Path dir;

  private final MutableClock clock = MutableClock.startingAt(Instant.parse("2024-05-01T10:00:00Z"));

  @Test
  void pausedQueueIsAlwaysRefusedAndUnlistedQueuesNeverAre() throws Exception {
    Path limits = write("limits.json", limits("paused_q", 0));
    try (TestServer server = TestServer.start(b -> b.rateLimitFile(limits).clock(clock));
        QueueClient client = server.client()) {
      client.createQueue("paused_q");
      client.createQueue("free_q");
      client.enqueue("free_q", jobs(50));

      assertThatThrownBy(() -> client.dequeue("paused_q", 1))
          .isInstanceOfSatisfying(
              QueueClientException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.DEQUEUE_RATE_LIMITED);
                assertThat(e.getMessage())
                    .startsWith("Dequeue rate limit exceeded for queue: paused_q");
              });
      int taken = 0;
      for (int i = 0; i < 50; i++) {
        taken += client.dequeue("free_q", 1).size();
      }
      assertThat(taken).isEqualTo(50);
      assertThat(server.metrics.counter("paused_q_dequeue_requests_rate_limited").getCount())
          .isEqualTo(1);
      assertThat(
              server.metrics.counter("PinLater.dequeueJobs.errors.DEQUEUE_RATE_LIMITED").getCount())
          .isEqualTo(1);
    }
  }

  @Test
  void aRefusedDequeueStillAppliesItsPiggyBackedAcks() throws Exception {
    Path limits = write("limits.json", limits("q", 2));
    try (TestServer server = TestServer.start(b -> b.rateLimitFile(limits).clock(clock));
        QueueClient client = server.client()) {
      client.createQueue("q");
      client.enqueue("q", jobs(5));
      List<DequeuedJob> claimed = client.dequeue("q", 2);
      assertThat(claimed).hasSize(2);

      AckParams acks =
          new AckParams(
              "q",
              List.of(
                  AckParams.Item.of(claimed.get(0).descriptor()),
                  AckParams.Item.of(claimed.get(1).descriptor())),
              List.of());
      assertThatThrownBy(() -> client.dequeue(DequeueParams.of("q", 2, "ignored").withAck(acks)))
          .isInstanceOfSatisfying(
              QueueClientException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DEQUEUE_RATE_LIMITED));

      assertThat(client.count(CountParams.of("q", JobState.SUCCEEDED))).isEqualTo(2);
    }
  }

  @Test
  void aRateOfRAllowsOneDequeueOfRAndRefusesTheNextUntilASecondPassed() throws Exception {
    Path limits = write("limits.json", limits("q", 10));
    try (TestServer server = TestServer.start(b -> b.rateLimitFile(limits).clock(clock));
        QueueClient client = server.client()) {
      client.createQueue("q");
      client.enqueue("q", jobs(30));

      assertThat(client.dequeue("q", 10)).hasSize(10);
      assertThatThrownBy(() -> client.dequeue("q", 1)).isInstanceOf(QueueClientException.class);
      clock.advance(Duration.ofSeconds(1));
      assertThat(client.dequeue("q", 10)).hasSize(10);
    }
  }

  @Test
  void changesToTheFilesApplyWithoutRestart() throws Exception {
    Path limits = write("limits.json", limits("q", 0));
    Path serverSet = write("servers", "a:1\n");
    try (TestServer server =
            TestServer.start(
                b ->
                    b.rateLimitFile(limits)
                        .serverSetFile(serverSet)
                        .clock(clock)
                        .configReloadInterval(Duration.ofMillis(50)));
        QueueClient client = server.client()) {
      client.createQueue("q");
      client.enqueue("q", jobs(3));
      assertThatThrownBy(() -> client.dequeue("q", 1)).isInstanceOf(QueueClientException.class);

      Files.writeString(serverSet, "a:1\nb:2\n\n");
      Files.writeString(limits, limits("q", 30));
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> Double.valueOf(15.0).equals(server.server.rateLimiter().rate("q")));

      Files.writeString(limits, "{ broken");
      Files.writeString(serverSet, "");
      pollTwice(server);
      assertThat(server.server.rateLimiter().rate("q")).isEqualTo(15.0);

      Files.writeString(limits, "{\"queues\": []}");
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> server.server.rateLimiter().rate("q") == null);
      assertThat(client.dequeue("q", 3)).hasSize(3);
    }
  }

  /**
   * Acceptance: 100 jobs/s shared by the 2 servers of the server set; workers dequeue as fast as
   * they can for 10 simulated seconds; each server delivers about 50 jobs/s.
   */
  @Test
  void twoServersShareTheConfiguredRate() throws Exception {
    Path limits = write("limits.json", limits("shared_q", 100));
    Path serverSet = write("servers", "host-a:9010\nhost-b:9010\n");
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
    try (TestServer a =
            TestServer.over(
                store, b -> b.rateLimitFile(limits).serverSetFile(serverSet).clock(clock));
        TestServer b =
            TestServer.over(
                store.sharingStorage(),
                s -> s.rateLimitFile(limits).serverSetFile(serverSet).clock(clock));
        QueueClient clientA = a.client();
        QueueClient clientB = b.client()) {
      clientA.createQueue("shared_q");
      for (int i = 0; i < 3; i++) {
        clientA.enqueue("shared_q", jobs(500));
      }
      int deliveredA = 0;
      int deliveredB = 0;
      for (int step = 0; step < 1000; step++) {
        clock.advance(Duration.ofMillis(10));
        deliveredA += dequeueOrZero(clientA);
        deliveredB += dequeueOrZero(clientB);
      }
      assertThat(deliveredA / 10.0).isCloseTo(50.0, Percentage.withPercentage(10));
      assertThat(deliveredB / 10.0).isCloseTo(50.0, Percentage.withPercentage(10));
    }
  }

  private static int dequeueOrZero(QueueClient client) {
    try {
      return client.dequeue("shared_q", 10).size();
    } catch (QueueClientException e) {
      assertThat(e.errorCode()).isEqualTo(ErrorCode.DEQUEUE_RATE_LIMITED);
      return 0;
    }
  }

  /**
   * Waits long enough for the watcher (50 ms period) to have seen the current files at least twice.
   */
  private static void pollTwice(TestServer server) {
    long until = System.nanoTime() + Duration.ofMillis(300).toNanos();
    await().atMost(Duration.ofSeconds(2)).until(() -> System.nanoTime() > until);
  }

  private Path write(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  static String limits(String queue, double rate) {
    return "{\"queues\": [{\"name\": \""
        + queue
        + "\", \"queueConfig\": {\"maxJobsPerSecond\": "
        + rate
        + "}}]}";
  }

  static List<NewJob> jobs(int count) {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      jobs.add(NewJob.of("job-" + i));
    }
    Collections.shuffle(jobs);
    return jobs;
  }
}
