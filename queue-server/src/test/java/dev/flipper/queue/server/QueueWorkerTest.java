package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.CountParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.ThriftJobQueue;
import dev.flipper.queue.worker.JobHandler;
import dev.flipper.queue.worker.QueueWorker;
import dev.flipper.queue.worker.RetryPolicy;
import dev.flipper.queue.worker.WorkerJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker over Thrift: {@link QueueWorker} on a {@link ThriftJobQueue} against a real server, so
 * the network path (piggy-backed acks, failure acks, heartbeats, a connection that breaks) stays
 * tested. The worker's own logic is tested in-process in queue-core ({@code
 * dev.flipper.queue.worker.QueueWorkerTest}).
 */
class QueueWorkerTest {
  private static final String QUEUE = "work_q";
  private final TestServer server = TestServer.start();

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void runsEveryJobOnceAndAcksIt() throws Exception {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger duplicates = new AtomicInteger();
    try (QueueClient client = server.client()) {
      client.createQueue(QUEUE);
      client.enqueue(QUEUE, RateLimitTest.jobs(300));
      try (QueueWorker worker =
          QueueWorker.builder(
                  ThriftJobQueue.over(client),
                  QUEUE,
                  job -> {
                    if (!seen.add(job.bodyAsString())) {
                      duplicates.incrementAndGet();
                    }
                  })
              .concurrency(8)
              .batchSize(5)
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofMillis(20))
              .build()
              .start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> count(client, JobState.SUCCEEDED) == 300);
        assertThat(worker.stats().jobsSucceeded()).isEqualTo(300);
      }
      assertThat(seen).hasSize(300);
      assertThat(duplicates).hasValue(0);
      assertThat(count(client, JobState.IN_PROGRESS)).isZero();
    }
  }

  @Test
  void acksAreNotLostWhenTheServerIsBrieflyUnreachable() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (QueueClient admin = server.client();
        FlakyProxy proxy = new FlakyProxy(server.port());
        QueueClient client =
            QueueClient.builder()
                .server("127.0.0.1", proxy.port())
                .maxAttempts(1)
                .connectTimeout(Duration.ofMillis(500))
                .requestTimeout(Duration.ofSeconds(2))
                .build()) {
      admin.createQueue(QUEUE);
      admin.enqueue(QUEUE, RateLimitTest.jobs(20));
      try (QueueWorker worker =
          QueueWorker.builder(ThriftJobQueue.over(client), QUEUE, job -> release.await())
              .concurrency(20)
              .batchSize(20)
              .pollInterval(Duration.ofMillis(50))
              .ackInterval(Duration.ofMillis(50))
              .build()
              .start()) {
        await().atMost(Duration.ofSeconds(10)).until(() -> worker.stats().running() == 20);

        proxy.down();
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> worker.stats().ackErrors() >= 2);
        assertThat(count(admin, JobState.IN_PROGRESS)).isEqualTo(20);

        proxy.up();
        await().atMost(Duration.ofSeconds(10)).until(() -> count(admin, JobState.SUCCEEDED) == 20);
        assertThat(worker.stats().acksExpired()).isZero();
      }
    }
  }

  @Test
  void closeStopsDequeuingAndFinishesAndAcksRunningJobs() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (QueueClient client = server.client()) {
      client.createQueue(QUEUE);
      client.enqueue(QUEUE, RateLimitTest.jobs(4));
      QueueWorker worker =
          QueueWorker.builder(
                  ThriftJobQueue.over(client), QUEUE, job -> release.await(10, TimeUnit.SECONDS))
              .concurrency(4)
              .batchSize(4)
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofSeconds(30))
              .build()
              .start();
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.stats().running() == 4);

      CompletableFuture<Void> closing = CompletableFuture.runAsync(worker::close);
      client.enqueue(QUEUE, RateLimitTest.jobs(3)); // must not be picked up any more
      release.countDown();
      closing.get(10, TimeUnit.SECONDS);

      assertThat(count(client, JobState.SUCCEEDED)).isEqualTo(4);
      assertThat(count(client, JobState.PENDING)).isEqualTo(3);
      assertThat(worker.stats().pendingAcks()).isZero();
    }
  }

  @Test
  void failedJobsComeBackAfterTheRetryPolicysDelay() throws Exception {
    JobHandler failing =
        new JobHandler() {
          @Override
          public void handle(WorkerJob job) {
            throw new IllegalStateException("boom on attempt " + job.attempt());
          }

          @Override
          public RetryPolicy retryPolicy() {
            return attempt -> attempt == 1 ? Duration.ZERO : Duration.ofHours(attempt);
          }
        };
    try (QueueClient client = server.client()) {
      client.createQueue(QUEUE);
      JobDescriptor id = client.enqueue(QUEUE, NewJob.of("x").withAttemptsAllowed(3));
      Instant before = Instant.now();
      try (QueueWorker worker =
          QueueWorker.builder(ThriftJobQueue.over(client), QUEUE, failing)
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofMillis(20))
              .build()
              .start()) {
        // attempt 1 fails with no delay, attempt 2 fails and waits 2 h
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> lookup(client, id).attemptsRemaining() == 1);
        JobInfo info = lookup(client, id);
        assertThat(info.state()).isEqualTo(JobState.PENDING);
        assertThat(info.runAfter()).isAfter(before.plus(Duration.ofMinutes(119)));
        assertThat(info.customStatus()).contains("boom on attempt 1").contains("boom on attempt 2");
        assertThat(worker.stats().jobsFailed()).isEqualTo(2);
      }
    }
  }

  @Test
  void lastAttemptFailureMakesTheJobFailed() throws Exception {
    try (QueueClient client = server.client()) {
      client.createQueue(QUEUE);
      JobDescriptor id = client.enqueue(QUEUE, NewJob.of("x").withAttemptsAllowed(1));
      try (QueueWorker worker =
          QueueWorker.builder(
                  ThriftJobQueue.over(client),
                  QUEUE,
                  job -> {
                    throw new Exception("no luck");
                  })
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofMillis(20))
              .build()
              .start()) {
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> lookup(client, id).state() == JobState.FAILED);
        assertThat(lookup(client, id).attemptsRemaining()).isZero();
        assertThat(worker.stats().jobsFailed()).isEqualTo(1);
      }
    }
  }

  @Test
  void longJobsAreKeptClaimedByHeartbeats() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (QueueClient client = server.client()) {
      client.createQueue(QUEUE);
      JobDescriptor id = client.enqueue(QUEUE, NewJob.of("slow"));
      try (QueueWorker worker =
          QueueWorker.builder(
                  ThriftJobQueue.over(client), QUEUE, job -> release.await(20, TimeUnit.SECONDS))
              .heartbeatInterval(Duration.ofMillis(100))
              .claimTimeout(Duration.ofSeconds(30))
              .pollInterval(Duration.ofMillis(20))
              .ackInterval(Duration.ofMillis(20))
              .build()
              .start()) {
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> lookup(client, id).state() == JobState.IN_PROGRESS);
        Instant claimedUpdate = lookup(client, id).updatedAt();

        await().atMost(Duration.ofSeconds(10)).until(() -> worker.stats().heartbeats() >= 3);
        JobInfo info = lookup(client, id);
        assertThat(info.state()).isEqualTo(JobState.IN_PROGRESS);
        assertThat(info.updatedAt()).isAfter(claimedUpdate);
        assertThat(worker.stats().heartbeatErrors()).isZero();
        release.countDown();
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> lookup(client, id).state() == JobState.SUCCEEDED);
      }
    }
  }

  private static int count(QueueClient client, JobState state) {
    return client.count(new CountParams(QUEUE, state, null, false, null))
        + client.count(new CountParams(QUEUE, state, null, true, null));
  }

  private static JobInfo lookup(QueueClient client, JobDescriptor id) {
    return client.lookup(List.of(id), false).get(id);
  }
}
