package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two stores (as two server processes) with eight threads each claim, time out and delete over one
 * MariaDB database: every job is handled exactly once and none is left claimed.
 */
@Tag("mariadb")
class MariaDbConcurrencyTest {
  private static final String QUEUE = "race_q";
  private static final long NOW = 1_000_000L;

  private final TestDatabases databases = new TestDatabases();
  private final List<JdbcQueueStore> stores = new ArrayList<>();
  private String url;

  @BeforeEach
  void open() {
    url = databases.newMariaDb();
  }

  @AfterEach
  void close() {
    stores.forEach(JdbcQueueStore::close);
    databases.close();
  }

  private ShardStore newStoreShard() {
    JdbcQueueStore store =
        JdbcQueueStore.builder()
            .shards(List.of(TestDatabases.mariaDbShard("1", url)))
            .poolSize(8)
            .build();
    stores.add(store);
    return store.shards().get(0);
  }

  private static List<NewJobRecord> jobs(int n, int attempts) {
    List<NewJobRecord> jobs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      jobs.add(new NewJobRecord(1, ("job" + i).getBytes(), NOW - i % 50, attempts, "", NOW));
    }
    return jobs;
  }

  @Test
  void twoStoresTimesEightThreadsClaimEachJobExactlyOnce() throws Exception {
    ShardStore a = newStoreShard();
    ShardStore b = newStoreShard();
    a.createQueue(QUEUE);
    int total = 10_000;
    for (int i = 0; i < total; i += 1000) {
      a.enqueue(QUEUE, jobs(1000, 2));
    }
    ConcurrentHashMap<Long, String> claimedBy = new ConcurrentHashMap<>();
    AtomicInteger duplicates = new AtomicInteger();
    ExecutorService executor = Executors.newFixedThreadPool(16);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      ShardStore shard = t % 2 == 0 ? a : b;
      String source = "worker-" + t;
      workers.add(
          executor.submit(
              () -> {
                start.await();
                while (true) {
                  List<StoredJob> claimed =
                      shard.claim(QUEUE, 1, 37, new Claim("d:" + source, source, NOW));
                  if (claimed.isEmpty()) {
                    return null;
                  }
                  for (StoredJob job : claimed) {
                    if (claimedBy.putIfAbsent(job.localId(), source) != null) {
                      duplicates.incrementAndGet();
                    }
                  }
                  shard.ackSucceeded(
                      QUEUE,
                      claimed.stream()
                          .map(j -> new AckRecord(new JobRef(1, j.localId()), "", 0))
                          .toList(),
                      NOW);
                }
              }));
    }
    start.countDown();
    for (Future<?> worker : workers) {
      worker.get(2, TimeUnit.MINUTES);
    }
    executor.shutdown();

    assertThat(duplicates).hasValue(0);
    assertThat(claimedBy).hasSize(total);
    assertThat(a.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, NOW, 100_000))
        .isEqualTo(total);
    assertThat(a.count(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.ALL, NOW, 100_000))
        .isZero();
    assertThat(a.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 100_000)).isZero();
  }

  @Test
  void threeMonitorsInParallelTimeOutEachClaimOnceAndCollectEachJobOnce() throws Exception {
    List<ShardStore> monitors = List.of(newStoreShard(), newStoreShard(), newStoreShard());
    ShardStore shard = monitors.get(0);
    shard.createQueue(QUEUE);
    int total = 3000;
    for (int i = 0; i < total; i += 1000) {
      shard.enqueue(QUEUE, jobs(1000, 2));
    }
    shard.claim(QUEUE, 1, total, new Claim("d", "s", NOW));

    List<MonitorCounts> timeOuts =
        runInParallel(
            monitors,
            m -> {
              List<MonitorCounts> passes = new ArrayList<>();
              MonitorCounts pass;
              do {
                pass = m.timeOutClaims(NOW + 1, 250, NOW + 2);
                passes.add(pass);
              } while (pass.total() > 0);
              return passes;
            });
    assertThat(timeOuts.stream().mapToInt(MonitorCounts::total).sum()).isEqualTo(total);
    assertThat(timeOuts.stream().mapToInt(c -> c.retried().getOrDefault(QUEUE, 0)).sum())
        .isEqualTo(total);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW + 2, 100_000))
        .isEqualTo(total);
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.PENDING,
                false,
                BodyFilter.ALL,
                NOW + 2,
                dev.flipper.queue.spi.ScanBound.START,
                5000))
        .allSatisfy(j -> assertThat(j.attemptsRemaining()).isEqualTo(1));

    List<StoredJob> claimed = shard.claim(QUEUE, 1, total, new Claim("d", "s", NOW + 3));
    for (int i = 0; i < claimed.size(); i += 1000) {
      shard.ackSucceeded(
          QUEUE,
          claimed.subList(i, Math.min(claimed.size(), i + 1000)).stream()
              .map(j -> new AckRecord(new JobRef(1, j.localId()), "", 0))
              .toList(),
          NOW + 4);
    }
    List<Integer> deleted =
        runInParallel(
            monitors,
            m -> {
              List<Integer> passes = new ArrayList<>();
              int n;
              do {
                n =
                    m.deleteFinished(JobState.SUCCEEDED, NOW + 5, 200).values().stream()
                        .mapToInt(Integer::intValue)
                        .sum();
                passes.add(n);
              } while (n > 0);
              return passes;
            });
    assertThat(deleted.stream().mapToInt(Integer::intValue).sum()).isEqualTo(total);
    assertThat(shard.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, NOW + 5, 100_000))
        .isZero();
  }

  @Test
  void deleteQueueRacingEnqueuesLeavesNoOrphanJobs() throws Exception {
    raceDeleteQueueWithEnqueuesOf(20);
  }

  /** A single job takes the one-statement INSERT ... SELECT ... LOCK IN SHARE MODE path. */
  @Test
  void deleteQueueRacingSingleJobEnqueuesLeavesNoOrphanJobs() throws Exception {
    raceDeleteQueueWithEnqueuesOf(1);
  }

  private void raceDeleteQueueWithEnqueuesOf(int jobsPerEnqueue) throws Exception {
    ShardStore a = newStoreShard();
    ShardStore b = newStoreShard();
    for (int round = 0; round < 5; round++) {
      a.createQueue(QUEUE);
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService executor = Executors.newFixedThreadPool(4);
      List<Future<?>> enqueuers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        enqueuers.add(
            executor.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 30; i++) {
                    try {
                      b.enqueue(QUEUE, jobs(jobsPerEnqueue, 1));
                    } catch (QueueException e) {
                      return null; // the queue is gone: QUEUE_NOT_FOUND
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      b.enqueue(QUEUE, jobs(1, 1)); // the enqueuers are running
      a.deleteQueue(QUEUE);
      for (Future<?> f : enqueuers) {
        f.get(1, TimeUnit.MINUTES);
      }
      executor.shutdown();
      assertThat(orphanJobs()).as("jobs left without their queue after round %d", round).isZero();
    }
  }

  private long orphanJobs() throws Exception {
    try (Connection c = DriverManager.getConnection(url, "root", "");
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT COUNT(*) FROM flipper_jobs j"
                    + " WHERE NOT EXISTS (SELECT 1 FROM flipper_queues q WHERE q.name = j.queue_name)")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private interface Pass<T> {
    List<T> run(ShardStore shard) throws Exception;
  }

  private static <T> List<T> runInParallel(List<ShardStore> shards, Pass<T> pass) throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(shards.size());
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<T>>> futures = new ArrayList<>();
    for (ShardStore shard : shards) {
      futures.add(
          executor.submit(
              () -> {
                start.await();
                return pass.run(shard);
              }));
    }
    start.countDown();
    List<T> all = new ArrayList<>();
    for (Future<List<T>> f : futures) {
      all.addAll(f.get(2, TimeUnit.MINUTES));
    }
    executor.shutdown();
    return all;
  }
}
