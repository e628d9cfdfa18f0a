package dev.flipper.queue.contract;

import static dev.flipper.queue.testing.Jobs.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobQueue;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.monitor.MonitorReport;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.testing.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Correctness under concurrency (docs/queue.md, "Storage"): several servers over one storage claim
 * every job exactly once, and several monitors make every transition exactly once.
 */
abstract class ConcurrencyContract extends ContractArea {
  private static final int JOBS = 20_000;
  private static final int BATCH = 250;
  private static final int THREADS_PER_SERVER = 8;

  @Test
  @Tag("slow")
  void twoServersWithEightThreadsEachClaimEveryJobExactlyOnce() throws Exception {
    JobQueue a = api();
    JobQueue b = fx().secondServerApi();
    List<JobDescriptor> enqueued = new ArrayList<>(JOBS);
    for (int start = 0; start < JOBS; start += BATCH) {
      int first = start;
      JobQueue via = (start / BATCH) % 2 == 0 ? a : b;
      enqueued.addAll(
          via.enqueue(
              queue(), Jobs.jobs(BATCH, i -> aJob("c" + (first + i)).withPriority(1 + i % 3))));
    }

    Set<JobDescriptor> claimed = ConcurrentHashMap.newKeySet();
    List<JobDescriptor> duplicates = new ArrayList<>();
    AtomicInteger total = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Callable<Void>> workers = new ArrayList<>();
    for (int t = 0; t < 2 * THREADS_PER_SERVER; t++) {
      JobQueue via = t % 2 == 0 ? a : b;
      String source = "worker-" + t;
      workers.add(
          () -> {
            go.await();
            while (true) {
              List<DequeuedJob> batch = via.dequeue(DequeueParams.of(queue(), 50, source));
              if (batch.isEmpty()) {
                return null;
              }
              for (DequeuedJob job : batch) {
                total.incrementAndGet();
                if (!claimed.add(job.descriptor())) {
                  synchronized (duplicates) {
                    duplicates.add(job.descriptor());
                  }
                }
              }
            }
          });
    }
    runAll(workers, go);

    assertThat(duplicates).as("claimed more than once").isEmpty();
    assertThat(total.get()).isEqualTo(JOBS);
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(enqueued);
    assertThat(snapshot()).isEqualTo(Map.of(JobState.IN_PROGRESS, JOBS));
  }

  @Test
  void threeMonitorsAtOnceMakeEachTransitionExactlyOnce() throws Exception {
    List<JobDescriptor> succeeded =
        claimAll(Jobs.jobs(100, i -> aJob("s" + i).withAttemptsAllowed(1)));
    ackSucceeded(succeeded);
    List<JobDescriptor> failed = claimAll(Jobs.jobs(50, i -> aJob("f" + i).withAttemptsAllowed(1)));
    ackFailed(failed);
    claimAll(Jobs.jobs(300, i -> aJob("t" + i).withAttemptsAllowed(1 + i % 2)));
    clock().advance(Duration.ofHours(3)); // past the claim time-out and both TTLs

    List<QueueStore> stores = List.of(fx().store(), fx().secondStore(), fx().store());
    CountDownLatch go = new CountDownLatch(1);
    List<Callable<MonitorReport>> monitors = new ArrayList<>();
    for (QueueStore store : stores) {
      QueueMonitor monitor = fx().monitor(store).batchSize(20).build();
      monitors.add(
          () -> {
            go.await();
            MonitorReport sum = MonitorReport.EMPTY;
            // Nothing becomes eligible during the runs, so a run that does nothing means this
            // monitor is done.
            for (MonitorReport run = monitor.runOnce();
                run.totals().total() > 0;
                run = monitor.runOnce()) {
              sum = sum.plus(run);
            }
            return sum;
          });
    }
    MonitorReport total = MonitorReport.EMPTY;
    for (MonitorReport report : runAll(monitors, go)) {
      total = total.plus(report);
    }
    // A sweep after them finds what a monitor left behind (for example after a deadlock) and keeps
    // the sum exact.
    QueueMonitor sweeper = fx().monitor().batchSize(1000).build();
    for (MonitorReport run = sweeper.runOnce(); run.totals().total() > 0; run = sweeper.runOnce()) {
      total = total.plus(run);
    }

    assertThat(total.forQueue(queue())).isEqualTo(new MonitorReport.QueueCounts(150, 150, 100, 50));
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, 150, JobState.FAILED, 150));
  }

  /**
   * Many threads enqueueing one job each at once (a remote client sends such jobs together in one
   * call): each thread gets the descriptors of its own jobs, and every job is stored once with its
   * own body and priority.
   */
  @Test
  void sixteenThreadsEnqueueingOneJobEachGetTheirOwnJobsBack() throws Exception {
    int threads = 16;
    int perThread = 150;
    JobQueue api = api();
    CountDownLatch go = new CountDownLatch(1);
    List<Callable<Map<JobDescriptor, String>>> producers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      producers.add(
          () -> {
            go.await();
            Map<JobDescriptor, String> mine = new java.util.LinkedHashMap<>();
            for (int i = 0; i < perThread; i++) {
              String body = "t" + thread + "-" + i;
              List<JobDescriptor> ids =
                  api.enqueue(queue(), List.of(aJob(body).withPriority(1 + thread % 3)));
              assertThat(ids).hasSize(1);
              assertThat(ids.get(0).priority()).isEqualTo(1 + thread % 3);
              mine.put(ids.get(0), body);
            }
            return mine;
          });
    }
    Map<JobDescriptor, String> all = new java.util.HashMap<>();
    for (Map<JobDescriptor, String> mine : runAll(producers, go)) {
      all.putAll(mine);
    }

    assertThat(all).as("distinct descriptors").hasSize(threads * perThread);
    List<JobDescriptor> ids = new ArrayList<>(all.keySet());
    for (int start = 0; start < ids.size(); start += 500) {
      List<JobDescriptor> page = ids.subList(start, Math.min(ids.size(), start + 500));
      api.lookup(page, true)
          .forEach(
              (id, info) ->
                  assertThat(new String(info.body(), java.nio.charset.StandardCharsets.UTF_8))
                      .as("body of " + id)
                      .isEqualTo(all.get(id)));
    }
    assertThat(snapshot()).isEqualTo(Map.of(JobState.PENDING, threads * perThread));
  }

  private List<JobDescriptor> claimAll(List<NewJob> jobs) {
    List<JobDescriptor> ids = enqueue(jobs);
    List<JobDescriptor> claimed = ids(dequeue(jobs.size()));
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(ids);
    return claimed;
  }

  /**
   * Starts the tasks together and returns their results; a generous deadline only guards against
   * hangs.
   */
  private static <T> List<T> runAll(List<Callable<T>> tasks, CountDownLatch go) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> task : tasks) {
        futures.add(pool.submit(task));
      }
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(5, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
