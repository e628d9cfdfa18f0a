package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.internal.RedisShard;
import dev.flipper.queue.redis.internal.ShardConnection;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.StoredJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The SPI semantics on Redis, operation by operation (the contract suite covers them through the
 * service).
 */
class RedisShardStoreTest extends RedisStoreTestBase {

  @Test
  void enqueueStoresEveryFieldAndGivesIncreasingIds() {
    NewJobRecord record = new NewJobRecord(2, utf8("hello"), T0 + 5, 3, "status ü", T0 - 7);
    List<Long> ids = shard.enqueue(QUEUE, List.of(record, job("second")));

    assertThat(ids).hasSize(2);
    assertThat(ids.get(1)).isGreaterThan(ids.get(0));
    StoredJob stored = lookup(2, ids.get(0));
    assertThat(stored.state()).isEqualTo(JobState.PENDING);
    assertThat(stored.attemptsAllowed()).isEqualTo(3);
    assertThat(stored.attemptsRemaining()).isEqualTo(3);
    assertThat(stored.customStatus()).isEqualTo("status ü");
    assertThat(stored.createdAtMillis()).isEqualTo(T0 - 7);
    assertThat(stored.updatedAtMillis()).isEqualTo(T0 - 7);
    assertThat(stored.runAfterMillis()).isEqualTo(T0 + 5);
    assertThat(stored.claimDescriptor()).isNull();
    assertThat(text(stored.body())).isEqualTo("hello");
    assertThat(shard.lookup(QUEUE, new JobRef(1, ids.get(0)), true)).as("wrong priority").isEmpty();
    assertThat(shard.lookup(QUEUE, new JobRef(2, ids.get(0)), false).orElseThrow().body()).isNull();
  }

  @Test
  void theEnqueueScriptTakesConsecutiveIdsFromTheShardCounterAndNoneForARefusedBatch() {
    List<Long> first =
        shard.enqueue(
            QUEUE, List.of(job("a"), new NewJobRecord(3, utf8("b"), T0, 2, "", T0), job("c")));
    assertNotFound(() -> shard.enqueue("missing", List.of(job("x"), job("y"))));
    List<Long> next = shard.enqueue(QUEUE, List.of(job("d")));

    assertThat(first).containsExactly(first.get(0), first.get(0) + 1, first.get(0) + 2);
    assertThat(next).containsExactly(first.get(0) + 3);
    try (Jedis jedis = new Jedis(RedisTestSupport.HOST, RedisTestSupport.PORT)) {
      assertThat(jedis.get(prefix + "{1}:ids")).isEqualTo(Long.toString(first.get(0) + 3));
    }
    assertThat(text(lookup(3, first.get(1)).body())).isEqualTo("b");
    assertThat(text(lookup(1, next.get(0)).body())).isEqualTo("d");
  }

  /**
   * Issue 16 item 4: a slow filter held a pooled connection per call; ten of them took the whole
   * pool.
   */
  @Test
  void bodyFiltersAreEvaluatedWithNoConnectionInUse() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 1250; i++) {
      jobs.add(job(utf8("n" + (i % 2)), 1, T0 - 1000, 2));
    }
    shard.enqueue(QUEUE, jobs);
    claim(1, 250, T0);
    ShardConnection connection = ((RedisShard) shard).connection();
    List<Integer> activeWhileFiltering = new ArrayList<>();
    // The filter reads its clock for every body it evaluates: the pool's state at that moment.
    LongSupplier clock =
        () -> {
          activeWhileFiltering.add(connection.activeConnections());
          return System.nanoTime();
        };

    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, filter("n1", clock), T0, 10_000))
        .isEqualTo(500);
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.PENDING,
                false,
                filter("n1", clock),
                T0,
                ScanBound.START,
                10_000))
        .hasSize(500);
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, false, filter("n1", clock), T0, 10_000))
        .isEqualTo(125);
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.IN_PROGRESS,
                false,
                filter("n1", clock),
                T0,
                ScanBound.START,
                10_000))
        .hasSize(125);

    assertThat(activeWhileFiltering).hasSizeGreaterThanOrEqualTo(2500).containsOnly(0);
  }

  private static BodyFilter filter(String regex, LongSupplier clock) {
    return BodyFilter.of(regex, BodyFilter.STEPS_PER_BODY, Duration.ofHours(1), clock);
  }

  /**
   * Issue 16 item 5 on Redis: filtered count and scan paged by offset; they page by (run-after, id)
   * now.
   */
  @Test
  void filteredScanAndCountPageThroughJobsThatShareOneRunAfter() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      jobs.add(job(utf8("m" + (i % 4)), 1, i < 1100 ? T0 - 1000 : T0 - 2000 + i, 2));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);

    List<StoredJob> found =
        shard.scan(
            QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m3"), T0, ScanBound.START, 10_000);
    assertThat(found)
        .extracting(StoredJob::localId)
        .containsExactlyElementsOf(
            IntStream.range(0, 1200)
                .filter(i -> i % 4 == 3)
                .mapToObj(ids::get)
                .sorted((a, b) -> compareScanOrder(jobs, ids, a, b))
                .toList());
    StoredJob middle = found.get(100);
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.PENDING,
                false,
                BodyFilter.of("m3"),
                T0,
                new ScanBound(middle.runAfterMillis(), middle.localId()),
                10_000))
        .containsExactlyElementsOf(found.subList(101, found.size()));
    assertThat(
            shard.scan(
                QUEUE,
                1,
                JobState.PENDING,
                false,
                BodyFilter.ALL,
                T0,
                new ScanBound(middle.runAfterMillis(), middle.localId()),
                50))
        .extracting(StoredJob::localId)
        .containsExactly(
            LongStream.rangeClosed(middle.localId() - 50, middle.localId() - 1)
                .boxed()
                .sorted(Comparator.reverseOrder())
                .toArray(Long[]::new));
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m[12]"), T0, 10_000))
        .isEqualTo(600);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m[12]"), T0, 555))
        .isEqualTo(555);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, true, BodyFilter.of("m"), T0 - 850, 10_000))
        .isEqualTo(49);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("m"), T0 - 850, 10_000))
        .isEqualTo(1151);
  }

  /** Scan order: run-after descending, then id descending. */
  private static int compareScanOrder(List<NewJobRecord> jobs, List<Long> ids, long a, long b) {
    long runAfterA = jobs.get(ids.indexOf(a)).runAfterMillis();
    long runAfterB = jobs.get(ids.indexOf(b)).runAfterMillis();
    return runAfterA != runAfterB ? Long.compare(runAfterB, runAfterA) : Long.compare(b, a);
  }

  @Test
  void queueAdministration() {
    assertThat(shard.queueNames()).containsExactly(QUEUE);
    assertThat(shard.queueExists(QUEUE)).isTrue();
    assertThat(shard.queueExists("other")).isFalse();
    shard.createQueue(QUEUE);
    shard.createQueue("other");
    assertThat(shard.queueNames()).containsExactlyInAnyOrder(QUEUE, "other");
    shard.deleteQueue("other");
    shard.deleteQueue("other");
    assertThat(shard.queueNames()).containsExactly(QUEUE);
  }

  @Test
  void operationsOnAMissingQueue() {
    assertNotFound(() -> shard.enqueue("missing", List.of(job("x"))));
    assertNotFound(() -> shard.ackSucceeded("missing", List.of(ack(1, 1)), T0));
    assertNotFound(() -> shard.ackFailed("missing", List.of(ack(1, 1)), T0));
    assertNotFound(
        () -> shard.count("missing", 1, JobState.PENDING, false, BodyFilter.ALL, T0, 10));
    assertNotFound(
        () ->
            shard.scan(
                "missing", 1, JobState.PENDING, false, BodyFilter.ALL, T0, ScanBound.START, 10));
    assertNotFound(() -> shard.retryFailed("missing", 1, 1, T0, 10, T0));
    assertNotFound(() -> shard.deleteJobs("missing", 1, JobState.PENDING, BodyFilter.ALL, 10));
    assertNotFound(() -> shard.deleteJobs("missing", 1, JobState.PENDING, BodyFilter.of("x"), 10));
    assertNotFound(
        () ->
            shard.checkpoint(
                "missing",
                "s",
                new CheckpointRecord(new JobRef(1, 1), null, false, T0, null, null),
                T0));
    assertThat(shard.claim("missing", 1, 10, new Claim("d", "s", T0))).isEmpty();
    assertThat(shard.peek("missing", 1, 10, T0)).isEmpty();
    assertThat(shard.lookup("missing", new JobRef(1, 1), true)).isEmpty();
  }

  @Test
  void claimTakesDueJobsEarliestFirstAndOnlyOnce() {
    long late = enqueue(job(utf8("late"), 1, T0 + 20, 2));
    long early = enqueue(job(utf8("early"), 1, T0 + 10, 2));
    long future = enqueue(job(utf8("future"), 1, T0 + 1000, 2));
    long otherPriority = enqueue(job(utf8("p2"), 2, T0, 2));

    assertThat(shard.peek(QUEUE, 1, 10, T0 + 30))
        .extracting(StoredJob::localId)
        .containsExactly(early, late);
    List<StoredJob> claimed =
        shard.claim(QUEUE, 1, 10, new Claim("host:1:claim", "worker-1", T0 + 30));

    assertThat(claimed).extracting(StoredJob::localId).containsExactly(early, late);
    StoredJob first = claimed.get(0);
    assertThat(first.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(text(first.body())).isEqualTo("early");
    assertThat(first.attemptsAllowed()).isEqualTo(2);
    assertThat(first.attemptsRemaining()).isEqualTo(2);
    assertThat(first.claimDescriptor()).isEqualTo("host:1:claim");
    assertThat(first.runAfterMillis()).isEqualTo(T0 + 10);
    StoredJob looked = lookup(1, early);
    assertThat(looked.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(looked.updatedAtMillis()).isEqualTo(T0 + 30);
    assertThat(looked.runAfterMillis())
        .as("the real run-after, not the claim time")
        .isEqualTo(T0 + 10);
    assertThat(looked.claimDescriptor()).isEqualTo("host:1:claim");
    assertThat(claim(1, 10, T0 + 30)).isEmpty();
    assertThat(lookup(1, future).state()).isEqualTo(JobState.PENDING);
    assertThat(lookup(2, otherPriority).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void equalRunAftersClaimInIdOrderAndRespectTheLimit() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      jobs.add(job("j" + i));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);

    assertThat(claim(1, 10, T0))
        .extracting(StoredJob::localId)
        .containsExactlyElementsOf(ids.subList(0, 10));
    assertThat(claim(1, 100, T0))
        .extracting(StoredJob::localId)
        .containsExactlyElementsOf(ids.subList(10, 25));
  }

  @Test
  void ackSucceededMovesOnlyInProgressJobsAndAppendsTheStatus() {
    long pending = enqueue(job(utf8("pending"), 1, T0 + 1000, 2));
    long running = enqueue(job("running"));
    assertThat(shard.checkpoint(QUEUE, "nobody", heartbeat(new JobRef(1, pending), T0), T0))
        .isFalse();
    claimOnly(running);

    List<AckRecord> acks =
        List.of(
            new AckRecord(new JobRef(1, running), " done", 0),
            new AckRecord(new JobRef(1, pending), " no", 0),
            new AckRecord(new JobRef(1, 999_999), "", 0));
    assertThat(shard.ackSucceeded(QUEUE, acks, T0 + 50)).isEqualTo(1);
    assertThat(shard.ackSucceeded(QUEUE, acks, T0 + 60)).as("a repeated ack is a no-op").isZero();

    StoredJob done = lookup(1, running);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.customStatus()).isEqualTo(" done");
    assertThat(done.updatedAtMillis()).isEqualTo(T0 + 50);
    assertThat(done.claimDescriptor()).as("the last claim stays visible").isNotNull();
    assertThat(done.attemptsRemaining()).isEqualTo(2);
    StoredJob untouched = lookup(1, pending);
    assertThat(untouched.state()).isEqualTo(JobState.PENDING);
    assertThat(untouched.customStatus()).isEmpty();
  }

  @Test
  void ackFailedRetriesWhileAttemptsRemainThenFails() {
    long id = enqueue(job(utf8("x"), 1, T0, 2));
    claimOnly(id);

    assertThat(shard.ackFailed(QUEUE, List.of(new AckRecord(new JobRef(1, id), "a", 500)), T0 + 10))
        .isEqualTo(1);
    StoredJob retried = lookup(1, id);
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(1);
    assertThat(retried.runAfterMillis()).isEqualTo(T0 + 510);
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(claim(1, 10, T0 + 509)).isEmpty();
    assertThat(claim(1, 10, T0 + 510))
        .hasSize(1)
        .first()
        .satisfies(job -> assertThat(job.attemptsRemaining()).isEqualTo(1));

    assertThat(
            shard.ackFailed(QUEUE, List.of(new AckRecord(new JobRef(1, id), "b", 500)), T0 + 600))
        .isEqualTo(1);
    StoredJob failed = lookup(1, id);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.attemptsRemaining()).isZero();
    assertThat(failed.customStatus()).isEqualTo("ab");
    assertThat(failed.runAfterMillis()).isEqualTo(T0 + 510);
    assertThat(shard.ackFailed(QUEUE, List.of(ack(1, id)), T0 + 700)).isZero();
  }

  @Test
  void acksOfSeveralPrioritiesInOneCall() {
    long p1 = enqueue(job(utf8("a"), 1, T0, 2));
    long p3 = enqueue(job(utf8("b"), 3, T0, 2));
    claim(1, 10, T0);
    claim(3, 10, T0);

    assertThat(shard.ackSucceeded(QUEUE, List.of(ack(1, p1), ack(3, p3)), T0 + 1)).isEqualTo(2);
    assertThat(lookup(1, p1).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(lookup(3, p3).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void customStatusIsCutTo5000JavaCharsWithoutSplittingCharacters() {
    long id = enqueue(job("x"));
    claimOnly(id);
    String head = "é".repeat(4999);
    shard.ackSucceeded(QUEUE, List.of(new AckRecord(new JobRef(1, id), head + "😀tail", 0)), T0);
    // 4999 + a surrogate pair would be 5001 chars: the pair is dropped whole.
    assertThat(lookup(1, id).customStatus()).isEqualTo(head);

    long other = enqueue(job("y"));
    claimOnly(other);
    shard.ackSucceeded(
        QUEUE, List.of(new AckRecord(new JobRef(1, other), "a".repeat(4998) + "😀zz", 0)), T0);
    assertThat(lookup(1, other).customStatus()).isEqualTo("a".repeat(4998) + "😀");
  }

  @Test
  void checkpointNeedsTheExactClaimingSourceAndAnInProgressJob() {
    long id = enqueue(job("body"));
    shard.claim(QUEUE, 1, 1, new Claim("d1", "worker-1", T0));
    JobRef ref = new JobRef(1, id);

    assertThat(shard.checkpoint(QUEUE, "worker", heartbeat(ref, T0 + 5), T0 + 5))
        .as("substring")
        .isFalse();
    assertThat(shard.checkpoint(QUEUE, "worker-12", heartbeat(ref, T0 + 5), T0 + 5)).isFalse();
    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-1",
                new CheckpointRecord(ref, utf8("new body"), false, T0 + 1000, 5, "pre "),
                T0 + 5))
        .isTrue();

    StoredJob job = lookup(1, id);
    assertThat(job.state()).isEqualTo(JobState.IN_PROGRESS);
    assertThat(text(job.body())).isEqualTo("new body");
    assertThat(job.runAfterMillis()).isEqualTo(T0 + 1000);
    assertThat(job.updatedAtMillis()).isEqualTo(T0 + 5);
    assertThat(job.attemptsAllowed()).isEqualTo(5);
    assertThat(job.attemptsRemaining()).isEqualTo(5);
    assertThat(job.customStatus()).isEqualTo("pre ");
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, true, BodyFilter.ALL, T0 + 5, 10))
        .isEqualTo(1);

    shard.ackSucceeded(QUEUE, List.of(ack(1, id)), T0 + 10);
    assertThat(shard.checkpoint(QUEUE, "worker-1", heartbeat(ref, T0 + 20), T0 + 20))
        .as("a finished job is never brought back")
        .isFalse();
    assertThat(lookup(1, id).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, true, BodyFilter.ALL, T0, 10)).isZero();
  }

  @Test
  void checkpointCanMoveAJobBackToPending() {
    long id = enqueue(job("body"));
    shard.claim(QUEUE, 1, 1, new Claim("d1", "worker-1", T0));

    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-1",
                new CheckpointRecord(new JobRef(1, id), null, true, T0 + 100, null, null),
                T0 + 5))
        .isTrue();

    StoredJob job = lookup(1, id);
    assertThat(job.state()).isEqualTo(JobState.PENDING);
    assertThat(job.claimDescriptor()).isNull();
    assertThat(job.attemptsRemaining()).isEqualTo(2);
    assertThat(text(job.body())).isEqualTo("body");
    assertThat(claim(1, 1, T0 + 99)).isEmpty();
    assertThat(claim(1, 1, T0 + 100)).hasSize(1);
  }

  @Test
  void countAndScanUseTheRealRunAfterInEveryState() {
    long a = enqueue(job(utf8("alpha"), 1, T0 - 30, 2));
    long b = enqueue(job(utf8("beta"), 1, T0 - 20, 2));
    long c = enqueue(job(utf8("gamma"), 1, T0 + 10_000, 2));

    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, 100))
        .isEqualTo(2);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, true, BodyFilter.ALL, T0, 100)).isEqualTo(1);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, 1)).isEqualTo(1);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("^al"), T0, 100))
        .isEqualTo(1);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, true, BodyFilter.of("m+a$"), T0, 100))
        .isEqualTo(1);
    assertThat(
            shard.scan(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, ScanBound.START, 10))
        .extracting(StoredJob::localId)
        .containsExactly(b, a);
    assertThat(
            shard.scan(QUEUE, 1, JobState.PENDING, true, BodyFilter.ALL, T0, ScanBound.START, 10))
        .extracting(StoredJob::localId)
        .containsExactly(c);

    claim(1, 10, T0 + 500);
    shard.ackSucceeded(QUEUE, List.of(ack(1, a), ack(1, b)), T0 + 600);
    List<StoredJob> done =
        shard.scan(
            QUEUE,
            1,
            JobState.SUCCEEDED,
            false,
            BodyFilter.of("beta"),
            T0 + 700,
            ScanBound.START,
            10);
    assertThat(done).extracting(StoredJob::localId).containsExactly(b);
    assertThat(done.get(0).runAfterMillis()).isEqualTo(T0 - 20);
    assertThat(done.get(0).body()).isNull();
    assertThat(shard.count(QUEUE, 1, JobState.SUCCEEDED, false, BodyFilter.ALL, T0 + 700, 100))
        .isEqualTo(2);
  }

  @Test
  void scanPagesThroughEqualRunAftersByIdWithoutGapsOrRepeats() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      jobs.add(job(utf8("j" + i), 1, i < 20 ? T0 : T0 - 1, 2));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);

    List<Long> seen = new ArrayList<>();
    ScanBound bound = ScanBound.START;
    while (true) {
      List<StoredJob> page =
          shard.scan(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, bound, 7);
      if (page.isEmpty()) {
        break;
      }
      page.forEach(job -> seen.add(job.localId()));
      StoredJob last = page.get(page.size() - 1);
      bound = new ScanBound(last.runAfterMillis(), last.localId());
    }

    List<Long> expected = new ArrayList<>(ids);
    java.util.Collections.reverse(expected.subList(0, 20));
    java.util.Collections.reverse(expected.subList(20, 30));
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void inProgressJobsCountAndScanByRunAfterThoughTheirSetIsScoredByUpdateTime() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      jobs.add(job(utf8(i % 3 == 0 ? "tagged " + i : "plain " + i), 1, T0 - (i < 8 ? 10 : 20), 2));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);
    claim(1, 100, T0);
    // A checkpoint moves one job's run-after into the future (and its update time, the set's
    // score).
    shard.checkpoint(
        QUEUE,
        "worker-1",
        new CheckpointRecord(new JobRef(1, ids.get(0)), null, false, T0 + 500, null, null),
        T0 + 1);

    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.ALL, T0, 100))
        .isEqualTo(11);
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, true, BodyFilter.ALL, T0, 100))
        .isEqualTo(1);
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.of("tagged"), T0, 100))
        .isEqualTo(3);
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.ALL, T0, 5))
        .isEqualTo(5);
    assertThat(
            shard.scan(
                QUEUE, 1, JobState.IN_PROGRESS, true, BodyFilter.ALL, T0, ScanBound.START, 10))
        .extracting(StoredJob::localId)
        .containsExactly(ids.get(0));

    List<Long> seen = new ArrayList<>();
    ScanBound bound = ScanBound.START;
    for (List<StoredJob> page;
        !(page = shard.scan(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.ALL, T0, bound, 4))
            .isEmpty(); ) {
      page.forEach(job -> seen.add(job.localId()));
      StoredJob last = page.get(page.size() - 1);
      bound = new ScanBound(last.runAfterMillis(), last.localId());
    }
    List<Long> expected = new ArrayList<>(ids.subList(1, 8));
    java.util.Collections.reverse(expected);
    List<Long> older = new ArrayList<>(ids.subList(8, 12));
    java.util.Collections.reverse(older);
    expected.addAll(older);
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  @Test
  void retryFailedAndDeleteJobs() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                job(utf8("keep"), 1, T0, 1),
                job(utf8("drop me"), 1, T0, 1),
                job(utf8("drop too"), 1, T0, 1)));
    claim(1, 10, T0);
    shard.ackFailed(QUEUE, ids.stream().map(id -> ack(1, id)).toList(), T0 + 1);
    assertThat(shard.count(QUEUE, 1, JobState.FAILED, false, BodyFilter.ALL, T0 + 2, 10))
        .isEqualTo(3);

    assertThat(shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.of("^drop"), 1)).isEqualTo(1);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.of("^drop"), 10))
        .isEqualTo(1);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.FAILED, BodyFilter.of("^drop"), 10)).isZero();
    assertThat(lookup(1, ids.get(0))).isNotNull();
    assertThat(lookup(1, ids.get(1))).isNull();

    assertThat(shard.retryFailed(QUEUE, 1, 4, T0 + 50, 10, T0 + 3)).isEqualTo(1);
    StoredJob retried = lookup(1, ids.get(0));
    assertThat(retried.state()).isEqualTo(JobState.PENDING);
    assertThat(retried.attemptsRemaining()).isEqualTo(4);
    assertThat(retried.runAfterMillis()).isEqualTo(T0 + 50);
    assertThat(retried.claimDescriptor()).isNull();
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.ALL, 10)).isEqualTo(1);
    assertThat(lookup(1, ids.get(0))).isNull();
  }

  @Test
  void deleteJobsInBulkWorksInChunks() {
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      jobs.add(job("bulk " + (i % 2 == 0 ? "even" : "odd")));
    }
    shard.enqueue(QUEUE, jobs);

    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("odd"), 2000))
        .isEqualTo(1250);
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.ALL, 1100)).isEqualTo(1100);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, 10_000))
        .isEqualTo(150);
  }

  private void claimOnly(long id) {
    List<StoredJob> claimed = claim(1, 100, T0);
    assertThat(claimed).extracting(StoredJob::localId).contains(id);
  }

  private static CheckpointRecord heartbeat(JobRef ref, long now) {
    return new CheckpointRecord(ref, null, false, now, null, null);
  }

  private static byte[] utf8(String text) {
    return RedisTestSupport.utf8(text);
  }

  private static void assertNotFound(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    QueueException e = catchThrowableOfType(QueueException.class, call);
    assertThat(e).isNotNull();
    assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(ErrorCode.QUEUE_NOT_FOUND);
    assertThat(e.getMessage()).contains("missing");
  }
}
