package dev.flipper.queue.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClientException;
import dev.flipper.queue.client.QueueUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coalescer's own rules, with a sender that records its calls (the wire path is tested by the
 * queue contract through real servers, where every single-job enqueue goes through it).
 */
class EnqueueCoalescerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<List<String>> calls = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger mostInFlight = new AtomicInteger();
  private final AtomicLong nextId = new AtomicLong(1);

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  /** Records the call, holds it a moment so that others pile up, and numbers the jobs. */
  private List<JobDescriptor> record(String queue, List<NewJob> jobs) {
    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try {
      calls.add(jobs.stream().map(EnqueueCoalescerTest::body).toList());
      pause(2);
      List<JobDescriptor> ids = new ArrayList<>();
      for (NewJob job : jobs) {
        ids.add(new JobDescriptor(queue, "1", job.priority(), nextId.getAndIncrement()));
      }
      return ids;
    } finally {
      inFlight.decrementAndGet();
    }
  }

  @Test
  void aLoneEnqueueIsSentAtOnceAsItsOwnCall() {
    EnqueueCoalescer coalescer = new EnqueueCoalescer(this::record, 2, 100, 1 << 20);

    JobDescriptor id = coalescer.enqueue("q", NewJob.of("only"), TIMEOUT);

    assertThat(id.localId()).isEqualTo(1);
    assertThat(calls).containsExactly(List.of("only"));
  }

  @Test
  void concurrentEnqueuesShareCallsWithinTheLimitsAndEachCallerGetsItsOwnJob() throws Exception {
    Map<String, JobDescriptor> byBody = new ConcurrentHashMap<>();
    Map<Long, String> bodyById = new ConcurrentHashMap<>();
    // The sender numbers jobs in call order; map each id back to the body it was given.
    EnqueueCoalescer checked =
        new EnqueueCoalescer(
            (queue, jobs) -> {
              List<JobDescriptor> ids = record(queue, jobs);
              for (int i = 0; i < jobs.size(); i++) {
                bodyById.put(ids.get(i).localId(), body(jobs.get(i)));
              }
              return ids;
            },
            2,
            5,
            1 << 20);

    runTogether(
        16,
        50,
        (thread, i) -> {
          String body = thread + "-" + i;
          byBody.put(
              body, checked.enqueue("q", NewJob.of(body).withPriority(1 + thread % 3), TIMEOUT));
        });

    assertThat(byBody).hasSize(800);
    byBody.forEach(
        (body, id) -> {
          assertThat(bodyById.get(id.localId())).as("job of " + body).isEqualTo(body);
          assertThat(id.priority()).isEqualTo(1 + Integer.parseInt(body.split("-")[0]) % 3);
        });
    assertThat(calls).as("fewer calls than jobs").hasSizeLessThan(800);
    assertThat(calls).allSatisfy(call -> assertThat(call).hasSizeBetween(1, 5));
    assertThat(mostInFlight.get()).as("calls in flight at once").isLessThanOrEqualTo(2);
  }

  @Test
  void aCallIsCutAtTheByteLimitAndAJobOverItGoesAlone() throws Exception {
    String big = "x".repeat(1000);
    EnqueueCoalescer coalescer = new EnqueueCoalescer(this::record, 1, 100, 2500);

    runTogether(
        8, 10, (thread, i) -> coalescer.enqueue("q", NewJob.of(big + thread + "-" + i), TIMEOUT));
    coalescer.enqueue("q", NewJob.of("y".repeat(3000)), TIMEOUT);

    // A call stops taking jobs once it holds 2,500 bytes: at most 3 jobs of ~1,064 bytes.
    assertThat(calls).allSatisfy(call -> assertThat(call).hasSizeLessThanOrEqualTo(3));
    assertThat(calls.get(calls.size() - 1)).hasSize(1);
  }

  @Test
  void aRefusedCallIsRetriedJobByJobSoOnlyTheBadJobFails() throws Exception {
    CountDownLatch othersWaiting = new CountDownLatch(1);
    EnqueueCoalescer coalescer =
        new EnqueueCoalescer(
            (queue, jobs) -> {
              calls.add(jobs.stream().map(EnqueueCoalescerTest::body).toList());
              if (jobs.stream().anyMatch(j -> body(j).equals("bad"))) {
                throw new QueueClientException(ErrorCode.ENQUEUE_REJECTED, "job 'bad' is refused");
              }
              if (body(jobs.get(0)).equals("first")) {
                await(othersWaiting); // holds the only turn while the others queue up behind it
              }
              return jobs.stream()
                  .map(j -> new JobDescriptor(queue, "1", 1, nextId.getAndIncrement()))
                  .toList();
            },
            1,
            100,
            1 << 20);

    Future<JobDescriptor> first =
        threads.submit(() -> coalescer.enqueue("q", NewJob.of("first"), TIMEOUT));
    awaitWaiting(coalescer, 0); // "first" is in its call
    List<Future<JobDescriptor>> good = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int n = i;
      good.add(threads.submit(() -> coalescer.enqueue("q", NewJob.of("good" + n), TIMEOUT)));
    }
    Future<JobDescriptor> bad =
        threads.submit(() -> coalescer.enqueue("q", NewJob.of("bad"), TIMEOUT));
    awaitWaiting(coalescer, 4);
    othersWaiting.countDown();

    assertThat(first.get(5, TimeUnit.SECONDS)).isNotNull();
    for (Future<JobDescriptor> job : good) {
      assertThat(job.get(5, TimeUnit.SECONDS)).isNotNull();
    }
    assertThatThrownBy(() -> bad.get(5, TimeUnit.SECONDS))
        .hasCauseInstanceOf(QueueClientException.class)
        .hasMessageContaining("job 'bad' is refused");
    assertThat(calls.get(1))
        .as("the bad job first went with the others")
        .containsExactlyInAnyOrder("good0", "good1", "good2", "bad");
    assertThat(calls.subList(2, calls.size()))
        .as("then each alone")
        .containsExactlyInAnyOrder(
            List.of("good0"), List.of("good1"), List.of("good2"), List.of("bad"));
  }

  @Test
  void aBrokenConnectionFailsEveryJobOfTheCallSayingWhetherItMayHaveBeenApplied() {
    EnqueueCoalescer coalescer =
        new EnqueueCoalescer(
            (queue, jobs) -> {
              throw new QueueUnavailableException("connection reset", true, null);
            },
            1,
            100,
            1 << 20);

    assertThatThrownBy(() -> coalescer.enqueue("q", NewJob.of("a"), TIMEOUT))
        .isInstanceOfSatisfying(
            QueueUnavailableException.class,
            e -> {
              assertThat(e.mayHaveBeenApplied()).isTrue();
              assertThat(e.getMessage()).isEqualTo("connection reset");
            });
  }

  @Test
  void anInterruptedCallerStillWaitingWithdrawsItsJobUnsent() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    EnqueueCoalescer coalescer =
        new EnqueueCoalescer(
            (queue, jobs) -> {
              calls.add(jobs.stream().map(EnqueueCoalescerTest::body).toList());
              await(release); // "first" holds the only turn
              return jobs.stream()
                  .map(j -> new JobDescriptor(queue, "1", 1, nextId.getAndIncrement()))
                  .toList();
            },
            1,
            100,
            1 << 20);
    Future<JobDescriptor> first =
        threads.submit(() -> coalescer.enqueue("q", NewJob.of("first"), TIMEOUT));
    awaitWaiting(coalescer, 0);
    Future<JobDescriptor> second =
        threads.submit(() -> coalescer.enqueue("q", NewJob.of("second"), TIMEOUT));
    awaitWaiting(coalescer, 1);

    second.cancel(true); // interrupts its thread

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (coalescer.waiting("q") != 0) {
      assertThat(System.nanoTime() < deadline).as("withdrawn").isTrue();
      Thread.onSpinWait();
    }
    release.countDown();
    assertThat(first.get(5, TimeUnit.SECONDS)).isNotNull();
    assertThat(calls).containsExactly(List.of("first"));
  }

  @Test
  void queuesDoNotShareCalls() throws Exception {
    EnqueueCoalescer coalescer = new EnqueueCoalescer(this::record, 1, 100, 1 << 20);

    runTogether(
        8,
        20,
        (thread, i) -> coalescer.enqueue("q" + thread % 2, NewJob.of(thread + "-" + i), TIMEOUT));

    assertThat(calls)
        .allSatisfy(
            call ->
                assertThat(call.stream().map(b -> Integer.parseInt(b.split("-")[0]) % 2).distinct())
                    .hasSize(1));
  }

  private interface Step {
    void run(int thread, int i) throws Exception;
  }

  private void runTogether(int threadCount, int perThread, Step step) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threadCount; t++) {
      int thread = t;
      futures.add(
          threads.submit(
              () -> {
                go.await();
                for (int i = 0; i < perThread; i++) {
                  step.run(thread, i);
                }
                return null;
              }));
    }
    go.countDown();
    for (Future<?> future : futures) {
      future.get(1, TimeUnit.MINUTES);
    }
  }

  /**
   * Waits (up to 10 s) until the queue "q" has this many jobs waiting for a call, and "first" is in
   * its call.
   */
  private void awaitWaiting(EnqueueCoalescer coalescer, int jobs) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!(calls.size() == 1 && coalescer.waiting("q") == jobs)) {
      assertThat(System.nanoTime() < deadline).as("%d jobs waiting", jobs).isTrue();
      Thread.onSpinWait();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String body(NewJob job) {
    return new String(job.body(), StandardCharsets.UTF_8);
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
