package dev.flipper.queue.worker;

import static dev.flipper.queue.testing.Jobs.aJob;
import static dev.flipper.queue.testing.Jobs.numbered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.testing.MutableClock;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker in-process, on a {@link QueueService} over the in-memory store, with one {@link
 * MutableClock} for the queue and the worker: retry delays, heartbeats and claim expiry happen when
 * the test moves the clock, never by sleeping. Asynchronous effects are awaited with a deadline.
 * The Thrift path is tested in queue-server ({@code dev.flipper.queue.server.QueueWorkerTest}).
 */
class QueueWorkerTest {
  private static final String QUEUE = "work_q";
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final MutableClock clock = MutableClock.startingAt(Instant.parse("2024-03-01T12:00:00Z"));
  private final InMemoryQueueStore store = InMemoryQueueStore.withShards("1", "2");
  private final QueueService service = QueueService.builder(store).clock(clock).build();
  private final RecordingJobQueue queue = new RecordingJobQueue(service);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<QueueWorker> workers = new ArrayList<>();

  QueueWorkerTest() {
    service.createQueue(QUEUE);
  }

  @AfterEach
  void stop() {
    release.countDown();
    queue.releaseHeldDequeues();
    workers.forEach(QueueWorker::close);
    store.close();
  }

  /**
   * A worker with quick real-time polling; everything that depends on time reads the test's clock.
   * Its dequeues ask for no wait, so tests can count the calls of an idle worker; the waiting
   * dequeue of the default settings has its own tests (see {@link #waitingWorker}).
   */
  private QueueWorker.Builder worker(JobHandler handler) {
    return QueueWorker.builder(queue, QUEUE, handler)
        .source("test-worker")
        .clock(clock)
        .pollInterval(Duration.ofMillis(5))
        .ackInterval(Duration.ofMillis(5))
        .dequeueWait(Duration.ZERO);
  }

  /**
   * A worker with the default dequeue wait and a poll interval of an hour: only a waiting dequeue
   * can bring a job that arrives while it is idle within a test.
   */
  private QueueWorker.Builder waitingWorker(JobHandler handler) {
    return QueueWorker.builder(queue, QUEUE, handler)
        .source("test-worker")
        .clock(clock)
        .ackInterval(Duration.ofMillis(5))
        .pollInterval(Duration.ofHours(1));
  }

  private QueueWorker started(QueueWorker.Builder builder) {
    QueueWorker worker = builder.build();
    workers.add(worker);
    return worker.start();
  }

  // ---------------------------------------------------------------------------------------------------
  // Running and batching

  @Test
  void runsEveryJobOnceAndAcksIt() {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    AtomicInteger duplicates = new AtomicInteger();
    service.enqueue(QUEUE, numbered("job_", 300));

    QueueWorker worker =
        started(
            worker(
                    job -> {
                      if (!seen.add(job.bodyAsString())) {
                        duplicates.incrementAndGet();
                      }
                    })
                .concurrency(8)
                .batchSize(5));

    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 300);
    assertThat(seen).hasSize(300);
    assertThat(duplicates).hasValue(0);
    assertThat(count(JobState.IN_PROGRESS)).isZero();
    await().atMost(TIMEOUT).until(() -> worker.stats().acksDelivered() == 300);
    assertThat(worker.stats())
        .satisfies(
            stats -> {
              assertThat(stats.jobsDequeued()).isEqualTo(300);
              assertThat(stats.jobsSucceeded()).isEqualTo(300);
              assertThat(stats.jobsFailed()).isZero();
            });
  }

  @Test
  void claimsAtMostABatchAndNeverMoreThanTheFreeSlots() {
    service.enqueue(QUEUE, numbered("job_", 10));

    QueueWorker worker = started(worker(job -> release.await()).concurrency(3).batchSize(2));

    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 3);
    // Every slot is busy: further dequeues wait for a slot instead of claiming jobs nobody would
    // run.
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> count(JobState.IN_PROGRESS) == 3);
    assertThat(queue.dequeues)
        .extracting(DequeueParams::limit)
        .allMatch(limit -> limit >= 1 && limit <= 2);
    assertThat(queue.dequeues).extracting(DequeueParams::source).containsOnly("test-worker");

    release.countDown();
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 10);
  }

  @Test
  void jobsAreClaimedUnderTheWorkersSource() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);

    started(worker(job -> release.await()));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.IN_PROGRESS);
    assertThat(lookup(id).claimDescriptor()).endsWith(":test-worker");
  }

  // ---------------------------------------------------------------------------------------------------
  // Keeping the pipe full

  /**
   * Runs "quick..." jobs at once (by the test's clock) and holds every other job until the test
   * releases.
   */
  private JobHandler quickOrHeld() {
    return job -> {
      if (!job.bodyAsString().startsWith("quick")) {
        release.await(30, TimeUnit.SECONDS);
      }
    };
  }

  @Test
  void severalDequeuesAreInFlightAtOnce() {
    service.enqueue(QUEUE, numbered("job_", 8));
    queue.holdDequeuesAfter(0);

    started(worker(quickOrHeld()).concurrency(4).batchSize(2).dequeuesInFlight(2));

    await().atMost(TIMEOUT).until(() -> queue.dequeuesInFlight() == 2);
    // Each asks for a batch; the two batches fill the slots, so a third call has no room to claim
    // for.
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> queue.dequeuesInFlight() == 2);
    queue.releaseHeldDequeues();
    release.countDown();
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 8);
    assertThat(queue.mostDequeuesInFlight()).isEqualTo(2);
  }

  @Test
  void prefetchesTheNextBatchWhileTheSlotsAreBusyOnceJobsAreKnownToBeQuick() {
    service.enqueue(QUEUE, List.of(aJob("quick")));
    QueueWorker worker =
        started(
            worker(quickOrHeld())
                .concurrency(2)
                .batchSize(2)
                .prefetch(2)
                .claimTimeout(Duration.ofHours(1))
                .heartbeatInterval(Duration.ofMinutes(30)));
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 1);

    service.enqueue(QUEUE, numbered("held_", 10));

    // Two running, two claimed to wait for a slot: the next batch is at hand. Never more.
    await()
        .atMost(TIMEOUT)
        .until(() -> worker.stats().running() == 2 && count(JobState.IN_PROGRESS) == 4);
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> count(JobState.IN_PROGRESS) == 4 && worker.claimedOrAskedFor() == 4);
    release.countDown();
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 11);
    assertThat(worker.stats().jobsDequeued()).isEqualTo(11);
  }

  @Test
  void prefetchesNothingBeforeAnyJobHasFinished() {
    service.enqueue(QUEUE, numbered("held_", 10));

    QueueWorker worker = started(worker(quickOrHeld()).concurrency(2).batchSize(2).prefetch(8));

    // A job might run for hours: until one has finished, only free slots are claimed for.
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 2);
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> count(JobState.IN_PROGRESS) == 2);
  }

  @Test
  void neverClaimsMoreThanItCanStartBeforeTheClaimTimesOut() {
    // One slot, jobs of 20 s (by the test's clock), claim time-out 100 s: waiting jobs must start
    // within
    // half of it, 50 s, so two may wait (the second starts after 40 s), though the prefetch allows
    // five.
    service.enqueue(QUEUE, List.of(aJob("slow")));
    QueueWorker worker =
        started(
            worker(
                    job -> {
                      if (job.bodyAsString().equals("slow")) {
                        clock.advance(Duration.ofSeconds(20));
                      } else {
                        release.await(30, TimeUnit.SECONDS);
                      }
                    })
                .concurrency(1)
                .batchSize(1)
                .prefetch(5)
                .claimTimeout(Duration.ofSeconds(100))
                .heartbeatInterval(Duration.ofSeconds(50)));
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 1);

    service.enqueue(QUEUE, numbered("held_", 6));

    await()
        .atMost(TIMEOUT)
        .until(() -> worker.stats().running() == 1 && count(JobState.IN_PROGRESS) == 3);
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> count(JobState.IN_PROGRESS) == 3);
    release.countDown();
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 7);
  }

  @Test
  void jobsWaitingForASlotAreHeartbeatLikeRunningOnes() {
    service.enqueue(QUEUE, List.of(aJob("quick")));
    QueueWorker worker =
        started(
            worker(quickOrHeld())
                .concurrency(1)
                .batchSize(1)
                .prefetch(1)
                .claimTimeout(Duration.ofSeconds(100))
                .heartbeatInterval(Duration.ofSeconds(50)));
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 1);
    service.enqueue(QUEUE, numbered("held_", 2));
    await()
        .atMost(TIMEOUT)
        .until(() -> worker.stats().running() == 1 && count(JobState.IN_PROGRESS) == 2);

    clock.advance(Duration.ofSeconds(50));

    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeats() == 2);
    assertThat(queue.checkpoints).flatMap(batch -> batch).hasSize(2);
  }

  @Test
  void successAcksAreFlushedOnTheirOwnWhenNoDequeueIsDue() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);

    // The job ends after a dequeue found nothing: then the dispatchers pause a minute and the
    // timer's first
    // tick is 50 s away, so only an ack sent on its own delivers it within the test.
    started(
        worker(job -> await().atMost(TIMEOUT).until(() -> queue.dequeues.size() >= 2))
            .pollInterval(Duration.ofMinutes(1))
            .ackInterval(Duration.ofSeconds(50))
            .heartbeatInterval(Duration.ofSeconds(55)));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(queue.acks)
        .flatMap(AckParams::succeeded)
        .extracting(AckParams.Item::job)
        .containsExactly(id);
  }

  @Test
  void anIdleWorkerStartsAJobEnqueuedWhileItWaitsWithoutWaitingForAPoll() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    started(waitingWorker(job -> ran.countDown()));
    await().atMost(TIMEOUT).until(() -> queue.dequeuesInFlight() > 0); // idle, waiting for jobs

    service.enqueue(QUEUE, List.of(aJob()));

    assertThat(ran.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(queue.dequeues)
        .extracting(DequeueParams::maxWait)
        .containsOnly(QueueWorker.DEFAULT_DEQUEUE_WAIT);
  }

  @Test
  void closeIsNotHeldUpByAWaitingDequeueAndGivesBackWhatItClaimsLater() {
    QueueWorker worker =
        started(waitingWorker(job -> {}).dequeueWait(Duration.ofSeconds(30)).dequeuesInFlight(1));
    await().atMost(TIMEOUT).until(() -> queue.dequeuesInFlight() == 1);

    // The dequeue asked for 30 s; close returns long before.
    assertTimeoutPreemptively(Duration.ofSeconds(10), worker::close);

    // The call still waiting claims this job, which no job thread may run any more: it goes back.
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    await()
        .atMost(TIMEOUT)
        .until(
            () ->
                queue.checkpoints.stream()
                    .flatMap(List::stream)
                    .anyMatch(c -> c.job().equals(id) && c.moveToPending()));
    assertThat(lookup(id).state()).isEqualTo(JobState.PENDING);
    assertThat(lookup(id).attemptsRemaining()).isEqualTo(lookup(id).attemptsAllowed());
  }

  @Test
  void successAcksAreNotHeldUpByADequeueThatLongPolls() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    queue.holdDequeuesAfter(
        1); // the first call claims the job; the next ones wait, as a long poll does

    // The job ends while a dequeue has been waiting for a while (a long poll, not a round trip);
    // the timer's
    // first tick is 50 s away.
    QueueWorker worker =
        started(
            worker(job -> await().atMost(TIMEOUT).until(() -> queue.heldFor().toMillis() >= 50))
                .ackInterval(Duration.ofSeconds(50))
                .heartbeatInterval(Duration.ofSeconds(55)));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(queue.dequeuesInFlight()).isPositive(); // delivered while the long poll still waits
    assertThat(worker.stats().pendingAcks()).isZero();
  }

  @Test
  void closeRunsAndAcksThePrefetchedJobsToo() throws Exception {
    service.enqueue(QUEUE, List.of(aJob("quick")));
    QueueWorker worker =
        started(
            worker(quickOrHeld())
                .concurrency(2)
                .batchSize(2)
                .prefetch(2)
                .claimTimeout(Duration.ofHours(1))
                .heartbeatInterval(Duration.ofMinutes(30))
                .ackInterval(Duration.ofMinutes(1)));
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 1);
    service.enqueue(QUEUE, numbered("held_", 4));
    await()
        .atMost(TIMEOUT)
        .until(() -> worker.stats().running() == 2 && count(JobState.IN_PROGRESS) == 4);

    CompletableFuture<Void> closing = CompletableFuture.runAsync(worker::close);
    await().atMost(TIMEOUT).until(worker::isStopping);
    service.enqueue(QUEUE, numbered("late_", 3)); // must not be claimed any more
    release.countDown();
    closing.get(30, TimeUnit.SECONDS);

    assertThat(count(JobState.SUCCEEDED)).isEqualTo(5);
    assertThat(count(JobState.IN_PROGRESS)).isZero();
    assertThat(count(JobState.PENDING)).isEqualTo(3);
    assertThat(worker.stats().pendingAcks()).isZero();
    assertThat(worker.stats().acksDelivered()).isEqualTo(5);
  }

  // ---------------------------------------------------------------------------------------------------
  // Acks

  @Test
  void successAcksRideOnTheNextDequeue() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);

    // No timer tick within the test: only a dequeue can deliver the ack.
    started(
        worker(job -> {})
            .ackInterval(Duration.ofMinutes(10))
            .heartbeatInterval(Duration.ofMinutes(10))
            .claimTimeout(Duration.ofHours(1)));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(queue.acks).isEmpty();
    assertThat(queue.dequeues)
        .map(DequeueParams::ack)
        .filteredOn(ack -> ack != null)
        .singleElement()
        .satisfies(
            ack -> {
              assertThat(ack.succeeded()).extracting(AckParams.Item::job).containsExactly(id);
              assertThat(ack.failed()).isEmpty();
            });
  }

  @Test
  void failureAcksAreSentOnTheirOwnNeverWithADequeue() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob().withAttemptsAllowed(1))).get(0);

    started(
        worker(
            job -> {
              throw new IllegalStateException("boom");
            }));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.FAILED);
    assertThat(queue.acks)
        .flatMap(AckParams::failed)
        .extracting(AckParams.Item::job)
        .containsExactly(id);
    assertThat(queue.dequeues)
        .map(DequeueParams::ack)
        .filteredOn(ack -> ack != null)
        .allSatisfy(ack -> assertThat(ack.failed()).isEmpty());
  }

  @Test
  void acksAreKeptWhileTheQueueIsUnreachableAndDeliveredWhenItIsBack() {
    service.enqueue(QUEUE, numbered("job_", 20));
    QueueWorker worker = started(worker(job -> release.await()).concurrency(20).batchSize(20));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 20);

    queue.down();
    release.countDown();
    await()
        .atMost(TIMEOUT)
        .until(() -> worker.stats().ackErrors() >= 2 && worker.stats().pendingAcks() == 20);
    assertThat(count(JobState.IN_PROGRESS)).isEqualTo(20);

    queue.up();
    await().atMost(TIMEOUT).until(() -> count(JobState.SUCCEEDED) == 20);
    assertThat(worker.stats().acksExpired()).isZero();
    assertThat(worker.stats().acksDelivered()).isEqualTo(20);
  }

  @Test
  void anAckIsGivenUpOnceTheClaimHasSurelyExpired() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    QueueWorker worker =
        started(
            worker(job -> release.await())
                .claimTimeout(Duration.ofSeconds(100))
                .heartbeatInterval(Duration.ofSeconds(50)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 1);
    queue.down();
    release.countDown();
    await().atMost(TIMEOUT).until(() -> worker.stats().pendingAcks() == 1);

    // Before 90% of the claim time-out the ack is kept and retried.
    clock.advance(Duration.ofSeconds(89));
    long errors = worker.stats().ackErrors();
    await().atMost(TIMEOUT).until(() -> worker.stats().ackErrors() >= errors + 2);
    assertThat(worker.stats().acksExpired()).isZero();

    // After it, the queue may already have handed the job to someone else: the ack must not be
    // sent.
    clock.advance(Duration.ofSeconds(2));
    await().atMost(TIMEOUT).until(() -> worker.stats().acksExpired() == 1);
    assertThat(worker.stats().pendingAcks()).isZero();
    queue.up();
    long delivered = worker.stats().acksDelivered();
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> worker.stats().acksDelivered() == delivered);
    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);
  }

  // ---------------------------------------------------------------------------------------------------
  // Retries

  @Test
  void aFailedJobComesBackAfterTheRetryPolicysDelay() {
    List<Integer> attempts = new CopyOnWriteArrayList<>();
    JobHandler failsOnce =
        new JobHandler() {
          @Override
          public void handle(WorkerJob job) {
            attempts.add(job.attempt());
            if (job.attempt() == 1) {
              throw new IllegalStateException("boom on attempt " + job.attempt());
            }
          }

          @Override
          public RetryPolicy retryPolicy() {
            return RetryPolicy.fixed(Duration.ofMinutes(10));
          }
        };
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob().withAttemptsAllowed(3))).get(0);
    Instant failedAt = clock.instant();

    QueueWorker worker = started(worker(failsOnce));

    await()
        .atMost(TIMEOUT)
        .until(() -> lookup(id).state() == JobState.PENDING && lookup(id).attemptsRemaining() == 2);
    assertThat(lookup(id).runAfter()).isEqualTo(failedAt.plus(Duration.ofMinutes(10)));
    assertThat(lookup(id).customStatus())
        .contains("attempt 1 failed: java.lang.IllegalStateException: boom");
    long calls = worker.stats().dequeueCalls();
    await().atMost(TIMEOUT).until(() -> worker.stats().dequeueCalls() >= calls + 3);
    assertThat(attempts).containsExactly(1);

    clock.advance(Duration.ofMinutes(10));
    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(attempts).containsExactly(1, 2);
    assertThat(worker.stats().jobsFailed()).isEqualTo(1);
  }

  @Test
  void theDefaultPolicyIsPinLatersLinearOneSecondStep() {
    List<Instant> runs = new CopyOnWriteArrayList<>();
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob().withAttemptsAllowed(3))).get(0);

    started(
        worker(
            job -> {
              runs.add(clock.instant());
              throw new IllegalStateException("always");
            }));

    // attempt 1 fails: retried at once; attempt 2 fails: 1 s later.
    await()
        .atMost(TIMEOUT)
        .until(
            () ->
                runs.size() == 2
                    && lookup(id).state() == JobState.PENDING
                    && lookup(id).attemptsRemaining() == 1);
    assertThat(lookup(id).runAfter()).isEqualTo(clock.instant().plusSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.FAILED);
    assertThat(runs).hasSize(3);
  }

  @Test
  void aFailureOnTheLastAttemptMakesTheJobFailed() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob().withAttemptsAllowed(1))).get(0);

    QueueWorker worker =
        started(
            worker(
                job -> {
                  throw new Exception("no luck");
                }));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.FAILED);
    assertThat(lookup(id).attemptsRemaining()).isZero();
    assertThat(lookup(id).customStatus())
        .contains("attempt 1 failed: java.lang.Exception: no luck");
    assertThat(worker.stats().jobsFailed()).isEqualTo(1);
  }

  @Test
  void aBrokenRetryPolicyRetriesAtOnce() {
    JobHandler broken =
        new JobHandler() {
          @Override
          public void handle(WorkerJob job) {
            if (job.attempt() < 3) {
              throw new IllegalStateException("boom");
            }
          }

          @Override
          public RetryPolicy retryPolicy() {
            return attempt -> {
              if (attempt == 1) {
                throw new ArithmeticException("policy bug");
              }
              return Duration.ofSeconds(-5);
            };
          }
        };
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob().withAttemptsAllowed(3))).get(0);

    started(worker(broken));

    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
  }

  // ---------------------------------------------------------------------------------------------------
  // Heartbeats

  @Test
  void aLongJobIsCheckpointedEveryHeartbeatIntervalSoItsClaimStaysAlive() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    QueueWorker worker =
        started(worker(job -> release.await()).heartbeatInterval(Duration.ofSeconds(60)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 1);
    Instant claimed = lookup(id).updatedAt();

    clock.advance(Duration.ofSeconds(59));
    await()
        .during(Duration.ofMillis(100))
        .atMost(TIMEOUT)
        .until(() -> worker.stats().heartbeats() == 0);

    clock.advance(Duration.ofSeconds(1));
    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeats() == 1);
    assertThat(lookup(id).updatedAt()).isEqualTo(claimed.plusSeconds(60));
    assertThat(lookup(id).state()).isEqualTo(JobState.IN_PROGRESS);

    clock.advance(Duration.ofSeconds(60));
    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeats() == 2);
    assertThat(queue.checkpoints)
        .allSatisfy(
            batch ->
                assertThat(batch)
                    .singleElement()
                    .satisfies(checkpoint -> assertThat(checkpoint.job()).isEqualTo(id)));

    release.countDown();
    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(worker.stats().heartbeatErrors()).isZero();
  }

  @Test
  void aHeartbeatRefreshesTheAckDeadline() {
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    QueueWorker worker =
        started(
            worker(job -> release.await())
                .heartbeatInterval(Duration.ofSeconds(60))
                .claimTimeout(Duration.ofSeconds(100)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 1);
    clock.advance(Duration.ofSeconds(60));
    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeats() == 1);

    // 95 s after the claim, past 90% of the claim time-out, but only 35 s after the heartbeat:
    // still safe.
    clock.advance(Duration.ofSeconds(35));
    release.countDown();
    await().atMost(TIMEOUT).until(() -> lookup(id).state() == JobState.SUCCEEDED);
    assertThat(worker.stats().acksExpired()).isZero();
  }

  @Test
  void aFailedHeartbeatIsRetried() {
    service.enqueue(QUEUE, List.of(aJob()));
    QueueWorker worker =
        started(worker(job -> release.await()).heartbeatInterval(Duration.ofSeconds(60)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 1);

    queue.down();
    clock.advance(Duration.ofSeconds(60));
    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeatErrors() >= 2);
    queue.up();
    await().atMost(TIMEOUT).until(() -> worker.stats().heartbeats() == 1);
  }

  // ---------------------------------------------------------------------------------------------------
  // Closing

  @Test
  void closeStopsDequeuingAndFinishesAndAcksRunningJobs() throws Exception {
    service.enqueue(QUEUE, numbered("job_", 4));
    // Acks only by the timer, which would not tick before the end of the test: close() must deliver
    // them.
    QueueWorker worker =
        started(
            worker(job -> release.await(10, TimeUnit.SECONDS))
                .concurrency(4)
                .batchSize(4)
                .ackInterval(Duration.ofMinutes(1)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 4);

    CompletableFuture<Void> closing = CompletableFuture.runAsync(worker::close);
    // Only once close() has stopped the dispatcher: a job released earlier would free a slot for a
    // late job.
    await().atMost(TIMEOUT).until(worker::isStopping);
    service.enqueue(QUEUE, numbered("late_", 3)); // must not be picked up any more
    release.countDown();
    closing.get(10, TimeUnit.SECONDS);

    assertThat(count(JobState.SUCCEEDED)).isEqualTo(4);
    assertThat(count(JobState.PENDING)).isEqualTo(3);
    assertThat(worker.stats().pendingAcks()).isZero();
    assertThat(worker.stats().jobsDequeued()).isEqualTo(4);
  }

  @Test
  void closeInterruptsJobsStillRunningAfterTheShutdownTimeout() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    JobDescriptor id = service.enqueue(QUEUE, List.of(aJob())).get(0);
    QueueWorker worker =
        started(
            worker(
                    job -> {
                      try {
                        new CountDownLatch(1).await();
                      } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                      }
                    })
                .shutdownTimeout(Duration.ofMillis(200)));
    await().atMost(TIMEOUT).until(() -> worker.stats().running() == 1);

    CompletableFuture.runAsync(worker::close).get(10, TimeUnit.SECONDS);

    assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    // The claim is left to time out, or the failure ack was delivered: either way the job is not
    // lost.
    assertThat(lookup(id).state()).isIn(JobState.IN_PROGRESS, JobState.PENDING);
  }

  @Test
  void startTwiceIsAnErrorAndCloseIsIdempotent() {
    QueueWorker worker = started(worker(job -> {}));

    assertThatThrownBy(worker::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already started");
    worker.close();
    worker.close();
  }

  // ---------------------------------------------------------------------------------------------------
  // Settings

  @Test
  void buildRejectsSettingsThatCannotWorkAndSaysWhich() {
    assertThatThrownBy(() -> worker(job -> {}).concurrency(0).build())
        .hasMessage("worker of queue 'work_q': concurrency must be 1..10000, was 0");
    assertThatThrownBy(() -> worker(job -> {}).batchSize(0).build())
        .hasMessageContaining("batchSize must be");
    assertThatThrownBy(() -> worker(job -> {}).pollInterval(Duration.ZERO).build())
        .hasMessageContaining("pollInterval must be > 0, was 0s");
    assertThatThrownBy(() -> worker(job -> {}).heartbeatInterval(Duration.ofMinutes(5)).build())
        .hasMessageContaining("heartbeatInterval (5m) must be shorter than claimTimeout (3m)");
    assertThatThrownBy(() -> worker(job -> {}).ackInterval(Duration.ofMinutes(2)).build())
        .hasMessageContaining("ackInterval (2m) must not exceed heartbeatInterval (1m)");
    assertThatThrownBy(() -> worker(job -> {}).prefetch(-1).build())
        .hasMessageContaining("prefetch must be 0..10000, was -1");
    assertThatThrownBy(() -> worker(job -> {}).dequeuesInFlight(0).build())
        .hasMessageContaining("dequeuesInFlight must be 1..16, was 0");
    assertThatThrownBy(() -> worker(job -> {}).dequeueWait(Duration.ofSeconds(31)).build())
        .hasMessageContaining("dequeueWait must be 0..30s, was 31s");
    assertThatThrownBy(() -> worker(job -> {}).source(" ").build())
        .hasMessageContaining("source must be 1..200");
    assertThatThrownBy(() -> worker(job -> {}).clock(null).build()).hasMessageContaining("clock");
    assertThatThrownBy(() -> QueueWorker.builder(queue, " ", job -> {}).build())
        .hasMessageContaining("queue must not be blank");
  }

  @Test
  void theWorkerKeepsNoBuilderAndDefaultsItsSource() {
    QueueWorker.Builder builder = QueueWorker.builder(queue, QUEUE, job -> {});
    QueueWorker worker = builder.build();
    builder.source("changed-later");

    assertThat(worker.source()).startsWith("flipper-worker:");
    assertThat(Arrays.stream(QueueWorker.class.getDeclaredFields()).map(Field::getType))
        .doesNotContain(QueueWorker.Builder.class);
  }

  private int count(JobState state) {
    return service.count(new CountParams(QUEUE, state, null, false, null))
        + service.count(new CountParams(QUEUE, state, null, true, null));
  }

  private JobInfo lookup(JobDescriptor id) {
    return service.lookup(List.of(id), false).get(id);
  }
}
