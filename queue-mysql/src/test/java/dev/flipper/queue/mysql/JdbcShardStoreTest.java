package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.jdbc.internal.Database;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.mysql.internal.JdbcShardStore;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JDBC-specific promises of one shard, below the service: the PinLater MySQL defects we fix,
 * binary bodies, statement splitting and SQL-free body filters. Subclasses give a fresh database.
 */
abstract class JdbcShardStoreTest {
  static final String QUEUE = "jobs_q";
  static final long NOW = 1_710_072_000_123L;

  JdbcQueueStore store;
  ShardStore shard;
  JdbcShardConfig config;

  /** A shard config over a fresh, empty database. */
  abstract JdbcShardConfig freshShard(String name);

  @BeforeEach
  void openStore() {
    config = freshShard("1");
    store = JdbcQueueStore.builder().shards(List.of(config)).poolSize(4).build();
    shard = store.shards().get(0);
    shard.createQueue(QUEUE);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  static NewJobRecord job(String body) {
    return job(body.getBytes(StandardCharsets.UTF_8), 2);
  }

  static NewJobRecord job(byte[] body, int attempts) {
    return new NewJobRecord(1, body, NOW - 1000, attempts, "", NOW - 1000);
  }

  static Claim claim(String source) {
    return new Claim("server:1:" + source + ":7", source, NOW);
  }

  List<StoredJob> claimAll(String source) {
    return shard.claim(QUEUE, 1, 1000, claim(source));
  }

  static List<AckRecord> acks(List<Long> ids, String append, long delay) {
    return ids.stream().map(id -> new AckRecord(new JobRef(1, id), append, delay)).toList();
  }

  StoredJob lookup(long id) {
    return shard.lookup(QUEUE, new JobRef(1, id), true).orElseThrow();
  }

  @Test
  void claimsDueJobsOnceInRunAfterOrderAndAcks() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                new NewJobRecord(
                    1, "b".getBytes(StandardCharsets.UTF_8), NOW - 10, 2, "", NOW - 20),
                new NewJobRecord(
                    1, "a".getBytes(StandardCharsets.UTF_8), NOW - 50, 2, "", NOW - 20),
                new NewJobRecord(
                    1, "later".getBytes(StandardCharsets.UTF_8), NOW + 60_000, 2, "", NOW - 20)));

    List<StoredJob> claimed = claimAll("w1");

    assertThat(claimed).extracting(StoredJob::localId).containsExactly(ids.get(1), ids.get(0));
    assertThat(claimed)
        .allSatisfy(
            j -> {
              assertThat(j.state()).isEqualTo(JobState.IN_PROGRESS);
              assertThat(j.claimDescriptor()).isEqualTo("server:1:w1:7");
              assertThat(j.attemptsRemaining()).isEqualTo(2);
            });
    assertThat(claimAll("w2")).isEmpty();
    assertThat(lookup(ids.get(0)).updatedAtMillis()).isEqualTo(NOW);

    assertThat(shard.ackSucceeded(QUEUE, acks(ids.subList(0, 2), "", 0), NOW + 5)).isEqualTo(2);
    assertThat(shard.ackSucceeded(QUEUE, acks(ids.subList(0, 2), "", 0), NOW + 6)).isZero();
    assertThat(lookup(ids.get(0)).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(lookup(ids.get(0)).updatedAtMillis()).isEqualTo(NOW + 5);
    assertThat(shard.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, NOW, 100))
        .isEqualTo(2);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, true, BodyFilter.ALL, NOW, 100))
        .isEqualTo(1);
  }

  /**
   * A claim starts at the queue's floor (ClaimFloors, MySQL only); a job another process makes due
   * below it is claimed as soon as the jobs above run short, and within the floor's 250 ms while
   * they do not.
   */
  @Test
  void jobsDueBelowTheClaimFloorAreStillClaimed() throws Exception {
    List<NewJobRecord> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(job("x" + i));
    }
    shard.enqueue(QUEUE, many);
    assertThat(shard.claim(QUEUE, 1, 1, claim("w"))).hasSize(1); // the floor is now NOW - 1000
    try (JdbcQueueStore other =
        JdbcQueueStore.builder().shards(List.of(config)).poolSize(2).build()) {
      long early =
          other
              .shards()
              .get(0)
              .enqueue(
                  QUEUE,
                  List.of(
                      new NewJobRecord(
                          1, "early".getBytes(StandardCharsets.UTF_8), NOW - 60_000, 2, "", NOW)))
              .get(0);
      long started = System.nanoTime();
      boolean claimed = false;
      while (!claimed && System.nanoTime() - started < 2_000_000_000L) {
        claimed = shard.claim(QUEUE, 1, 1, claim("w")).get(0).localId() == early;
        Thread.sleep(20);
      }
      assertThat(claimed).as("claimed within 2 s while 99 later jobs were due").isTrue();

      long earlier =
          other
              .shards()
              .get(0)
              .enqueue(
                  QUEUE,
                  List.of(
                      new NewJobRecord(
                          1, "earlier".getBytes(StandardCharsets.UTF_8), NOW - 90_000, 2, "", NOW)))
              .get(0);
      assertThat(shard.claim(QUEUE, 1, 1000, claim("w")))
          .extracting(StoredJob::localId)
          .first()
          .isEqualTo(earlier);
    }
  }

  @Test
  void randomBinaryBodyOf64KiBRoundTrips() {
    byte[] body = new byte[64 * 1024];
    new Random(42).nextBytes(body);
    long id = shard.enqueue(QUEUE, List.of(job(body, 2))).get(0);

    assertThat(claimAll("w").get(0).body()).isEqualTo(body);
    assertThat(lookup(id).body()).isEqualTo(body);
    assertThat(shard.lookup(QUEUE, new JobRef(1, id), false).orElseThrow().body()).isNull();
  }

  @Test
  void batchLargerThanMaxAllowedPacketIsSplitAndKeepsIdOrder() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      byte[] body =
          new byte[1 << 20]; // 20 MiB in all: more than this server's 16 MiB max_allowed_packet
      body[0] = (byte) i;
      jobs.add(job(body, 2));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);

    assertThat(ids).hasSize(20).isSorted().doesNotHaveDuplicates();
    for (int i = 0; i < 20; i++) {
      assertThat(lookup(ids.get(i)).body()[0]).isEqualTo((byte) i);
    }
  }

  @Test
  void enqueueAndAckOnMissingQueueAreQueueNotFoundButClaimIsEmpty() {
    QueueException e =
        catchThrowableOfType(QueueException.class, () -> shard.enqueue("nope", List.of(job("x"))));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.QUEUE_NOT_FOUND);
    e =
        catchThrowableOfType(
            QueueException.class, () -> shard.ackSucceeded("nope", acks(List.of(1L), "", 0), NOW));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.QUEUE_NOT_FOUND);
    assertThat(shard.claim("nope", 1, 10, claim("w"))).isEmpty();
    assertThat(shard.lookup("nope", new JobRef(1, 1), false)).isEmpty();
  }

  @Test
  void failureAckRetriesWhileAttemptsRemainAndNeverLeavesAJobInProgress() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                job("x".getBytes(StandardCharsets.UTF_8), 3),
                job("y".getBytes(StandardCharsets.UTF_8), 1),
                job("z".getBytes(StandardCharsets.UTF_8), 0)));
    claimAll("w");

    assertThat(shard.ackFailed(QUEUE, acks(ids, "!", 30_000), NOW + 10)).isEqualTo(3);

    StoredJob retried = lookup(ids.get(0));
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(2);
    assertThat(retried.runAfterMillis()).isEqualTo(NOW + 10 + 30_000);
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(retried.customStatus()).isEqualTo("!");
    for (long id : ids.subList(1, 3)) { // one attempt left, and the original's stuck case of 0 left
      StoredJob failed = lookup(id);
      assertThat(failed.state()).isEqualTo(JobState.FAILED);
      assertThat(failed.attemptsRemaining()).isZero();
      assertThat(failed.updatedAtMillis()).isEqualTo(NOW + 10);
    }
  }

  @Test
  void customStatusIsAppendedAndPrependedAndCutAt5000Characters() {
    String start = "s".repeat(4990);
    long id =
        shard
            .enqueue(QUEUE, List.of(new NewJobRecord(1, new byte[0], NOW - 1, 2, start, NOW - 1)))
            .get(0);
    claimAll("w");
    shard.checkpoint(
        QUEUE, "w", new CheckpointRecord(new JobRef(1, id), null, false, NOW, null, "p"), NOW);
    assertThat(lookup(id).customStatus()).startsWith("ps").hasSize(4991);

    shard.ackSucceeded(QUEUE, acks(List.of(id), "0123456789abcdefghij", 0), NOW);

    assertThat(lookup(id).customStatus()).hasSize(5000).startsWith("ps").endsWith("s012345678");
  }

  @Test
  void checkpointNeedsTheExactClaimingSource() {
    long id = shard.enqueue(QUEUE, List.of(job("x"))).get(0);
    claimAll("worker-A");
    JobRef ref = new JobRef(1, id);

    for (String other : List.of("worker-a", "worker-A ", "worker", "%", "")) {
      assertThat(
              shard.checkpoint(
                  QUEUE,
                  other,
                  new CheckpointRecord(ref, null, false, NOW + 1, null, null),
                  NOW + 1))
          .as("checkpoint from '%s'", other)
          .isFalse();
    }
    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-A",
                new CheckpointRecord(
                    ref, "new".getBytes(StandardCharsets.UTF_8), false, NOW + 500, 5, null),
                NOW + 2))
        .isTrue();
    StoredJob job = lookup(id);
    assertThat(job.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(job.runAfterMillis()).isEqualTo(NOW + 500);
    assertThat(job.updatedAtMillis()).isEqualTo(NOW + 2);
    assertThat(job.attemptsAllowed()).isEqualTo(5);
    assertThat(job.attemptsRemaining()).isEqualTo(5);
    assertThat(new String(job.body(), StandardCharsets.UTF_8)).isEqualTo("new");

    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-A",
                new CheckpointRecord(ref, null, true, NOW + 3, null, null),
                NOW + 3))
        .isTrue();
    assertThat(lookup(id).state()).isEqualTo(JobState.PENDING);
    assertThat(lookup(id).claimDescriptor()).isNull();
    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-A",
                new CheckpointRecord(ref, null, false, NOW + 4, null, null),
                NOW + 4))
        .isFalse();
  }

  @Test
  void bodyFiltersRunInJavaSoSqlInBodiesOrPatternsIsHarmless() {
    shard.enqueue(
        QUEUE,
        List.of(job("a'; DROP TABLE flipper_jobs; --"), job("abc"), job("xyz"), job("ab\u00e9")));

    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("^ab"), NOW, 100))
        .isEqualTo(2);
    assertThat(
            shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("' OR 1=1 --"), NOW, 100))
        .isZero();
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("\u00e9$"), NOW, 100))
        .isEqualTo(1);
    assertThat(
            shard.scan(
                QUEUE, 1, JobState.PENDING, false, BodyFilter.of("^x"), NOW, ScanBound.START, 10))
        .hasSize(1)
        .allSatisfy(j -> assertThat(j.body()).isNull());
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("DROP"), 10))
        .isEqualTo(1);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 100))
        .isEqualTo(3);
  }

  @Test
  void filteredCountAndDeletePageThroughManyRows() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 450; i++) {
      jobs.add(
          new NewJobRecord(
              1, ("n" + (i % 3)).getBytes(StandardCharsets.UTF_8), NOW - 1000 + i % 7, 2, "", NOW));
    }
    shard.enqueue(QUEUE, jobs);

    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("n1"), NOW, 1000))
        .isEqualTo(150);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("n1"), NOW, 40))
        .isEqualTo(40);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("n2"), 120))
        .isEqualTo(120);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("n2"), 1000))
        .isEqualTo(30);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 1000))
        .isEqualTo(300);
  }

  /**
   * Issue 16 item 4: a slow filter held a pooled connection per call; ten of them took the whole
   * pool.
   */
  @Test
  void bodyFiltersAreEvaluatedWithNoConnectionInUse() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      jobs.add(
          new NewJobRecord(
              1, ("n" + (i % 2)).getBytes(StandardCharsets.UTF_8), NOW - 1000, 2, "", NOW));
    }
    shard.enqueue(QUEUE, jobs);
    Database database = ((JdbcShardStore) shard).database();
    List<String> poolWhileFiltering = new ArrayList<>();
    // The filter reads its clock for every body it evaluates: the pool's state at that moment.
    LongSupplier clock =
        () -> {
          poolWhileFiltering.add(database.poolState());
          return System.nanoTime();
        };

    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, filter("n1", clock), NOW, 1000))
        .isEqualTo(125);
    assertThat(
            shard.scan(
                QUEUE, 1, JobState.PENDING, false, filter("n1", clock), NOW, ScanBound.START, 1000))
        .hasSize(125);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, filter("n0", clock), 1000))
        .isEqualTo(125);

    assertThat(poolWhileFiltering)
        .hasSizeGreaterThanOrEqualTo(750)
        .allSatisfy(state -> assertThat(state).contains("active=0"));
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 1000))
        .isEqualTo(125);
  }

  private static BodyFilter filter(String regex, LongSupplier clock) {
    return BodyFilter.of(regex, BodyFilter.STEPS_PER_BODY, Duration.ofHours(1), clock);
  }

  /**
   * Issue 16 item 5: 100,000 jobs with one run_after took 97 s to count by body on MariaDB
   * (quadratic).
   */
  @Test
  void filteredScanAndDeletePageThroughJobsThatShareOneRunAfter() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      jobs.add(
          new NewJobRecord(
              1, ("m" + (i % 4)).getBytes(StandardCharsets.UTF_8), NOW - 1000, 2, "", NOW));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);

    List<StoredJob> found =
        shard.scan(
            QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m3"), NOW, ScanBound.START, 1000);
    assertThat(found)
        .extracting(StoredJob::localId)
        .isSortedAccordingTo(java.util.Comparator.reverseOrder())
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.IntStream.range(0, 1000)
                .filter(i -> i % 4 == 3)
                .mapToObj(ids::get)
                .toList());
    StoredJob middle = found.get(100);
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.PENDING,
                false,
                BodyFilter.of("m3"),
                NOW,
                new ScanBound(middle.runAfterMillis(), middle.localId()),
                1000))
        .hasSize(149);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m[12]"), NOW, 10_000))
        .isEqualTo(500);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("m0"), 10_000))
        .isEqualTo(250);
  }

  @Test
  void scanPagesNewestRunAfterFirstWithTiesByIdDescending() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                new NewJobRecord(1, new byte[0], NOW - 300, 2, "", NOW),
                new NewJobRecord(1, new byte[0], NOW - 100, 2, "", NOW),
                new NewJobRecord(1, new byte[0], NOW - 100, 2, "", NOW),
                new NewJobRecord(1, new byte[0], NOW - 200, 2, "", NOW)));

    List<StoredJob> first =
        shard.scan(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, ScanBound.START, 2);
    StoredJob last = first.get(1);
    List<StoredJob> second =
        shard.scan(
            QUEUE,
            1,
            JobState.PENDING,
            false,
            BodyFilter.ALL,
            NOW,
            new ScanBound(last.runAfterMillis(), last.localId()),
            10);

    assertThat(first).extracting(StoredJob::localId).containsExactly(ids.get(2), ids.get(1));
    assertThat(second).extracting(StoredJob::localId).containsExactly(ids.get(3), ids.get(0));
  }

  @Test
  void retryFailedAndDeleteJobsRespectTheirLimits() {
    List<Long> ids =
        shard.enqueue(
            QUEUE, List.of(job(new byte[1], 1), job(new byte[1], 1), job(new byte[1], 1)));
    claimAll("w");
    shard.ackFailed(QUEUE, acks(ids, "", 0), NOW);

    assertThat(shard.retryFailed(QUEUE, 1, 4, NOW + 99, 2, NOW + 1)).isEqualTo(2);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, true, BodyFilter.ALL, NOW + 1, 10))
        .isEqualTo(2);
    assertThat(
            shard.scan(
                QUEUE, 1, JobState.PENDING, true, BodyFilter.ALL, NOW + 1, ScanBound.START, 10))
        .allSatisfy(j -> assertThat(j.attemptsRemaining()).isEqualTo(4));
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.ALL, 5)).isEqualTo(1);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.ALL, 5)).isZero();
  }

  @Test
  void claimTimeOutRetriesOrFailsEachJobOnce() {
    List<Long> ids = shard.enqueue(QUEUE, List.of(job(new byte[1], 2), job(new byte[1], 1)));
    claimAll("w");

    MonitorCounts counts = shard.timeOutClaims(NOW + 1, 100, NOW + 50);

    assertThat(counts.retried()).isEqualTo(Map.of(QUEUE, 1));
    assertThat(counts.failed()).isEqualTo(Map.of(QUEUE, 1));
    assertThat(shard.timeOutClaims(NOW + 1, 100, NOW + 50).total()).isZero();
    StoredJob retried = lookup(ids.get(0));
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(1);
    assertThat(retried.runAfterMillis()).isEqualTo(NOW - 1000); // was due already: keeps its place
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(lookup(ids.get(1)).state()).isEqualTo(JobState.FAILED);
    assertThat(lookup(ids.get(1)).attemptsRemaining()).isZero();
  }

  @Test
  void claimTimeOutCountsFromTheLastCheckpoint() {
    long id = shard.enqueue(QUEUE, List.of(job("x"))).get(0);
    claimAll("w");
    shard.checkpoint(
        QUEUE,
        "w",
        new CheckpointRecord(new JobRef(1, id), null, false, NOW + 1000, null, null),
        NOW + 1000);

    assertThat(shard.timeOutClaims(NOW + 500, 100, NOW + 1500).total()).isZero();
    assertThat(shard.timeOutClaims(NOW + 1001, 100, NOW + 1500).retried())
        .isEqualTo(Map.of(QUEUE, 1));
    assertThat(lookup(id).runAfterMillis()).isEqualTo(NOW + 1000);
  }

  @Test
  void garbageCollectionCountsFromWhenTheJobFinished() {
    shard.createQueue("other_q");
    List<Long> ids = shard.enqueue(QUEUE, List.of(job("a"), job("b")));
    shard.enqueue("other_q", List.of(job("c")));
    shard.claim(QUEUE, 1, 10, claim("w"));
    shard.claim("other_q", 1, 10, claim("w"));
    shard.ackSucceeded(QUEUE, acks(ids, "", 0), NOW + 100);
    shard.ackSucceeded("other_q", acks(List.of(ids.get(1) + 1), "", 0), NOW + 100);

    assertThat(shard.deleteFinished(JobState.SUCCEEDED, NOW + 100, 10)).isEmpty();
    assertThat(shard.deleteFinished(JobState.FAILED, NOW + 101, 10)).isEmpty();
    Map<String, Integer> first = shard.deleteFinished(JobState.SUCCEEDED, NOW + 101, 2);
    Map<String, Integer> second = shard.deleteFinished(JobState.SUCCEEDED, NOW + 101, 10);

    assertThat(first.values().stream().mapToInt(i -> i).sum()).isEqualTo(2);
    Map<String, Integer> total = new java.util.HashMap<>(first);
    second.forEach((q, n) -> total.merge(q, n, Integer::sum));
    assertThat(total).isEqualTo(Map.of(QUEUE, 2, "other_q", 1));
    assertThat(shard.deleteFinished(JobState.SUCCEEDED, NOW + 101, 10)).isEmpty();
  }

  @Test
  void deleteQueueRemovesItsJobsAndLaterEnqueuesFail() {
    shard.enqueue(QUEUE, List.of(job("a"), job("b")));
    shard.deleteQueue(QUEUE);

    assertThat(shard.queueExists(QUEUE)).isFalse();
    assertThat(shard.queueNames()).doesNotContain(QUEUE);
    assertThat(
            catchThrowableOfType(
                    QueueException.class, () -> shard.enqueue(QUEUE, List.of(job("c"))))
                .errorCode())
        .isEqualTo(ErrorCode.QUEUE_NOT_FOUND);
    shard.createQueue(QUEUE);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, NOW, 100)).isZero();
  }

  @Test
  void queueNamesAreCaseSensitiveAndCreateIsIdempotent() {
    shard.createQueue("Mail");
    shard.createQueue("mail");
    shard.createQueue("mail");

    assertThat(shard.queueNames()).containsExactlyInAnyOrder(QUEUE, "Mail", "mail");
    assertThat(shard.queueExists("MAIL")).isFalse();
  }
}
