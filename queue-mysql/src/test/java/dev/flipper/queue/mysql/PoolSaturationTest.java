package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.mysql.internal.JdbcShardStore;
import dev.flipper.queue.spi.ShardStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * More callers than connections (issue 10, defect 2): 16 threads enqueue, dequeue and ack through a
 * pool of 2 while the test, now and then, holds both connections for longer than the pool wait. A
 * full pool is back-pressure, not a dead database: every call succeeds or fails with SHARD_BUSY
 * naming the shard, the pool state and the wait; the shard never reports unhealthy; no job is lost
 * or handed out twice. Subclasses give the database.
 */
abstract class PoolSaturationTest {
  private static final String QUEUE = "busy_q";
  private static final int POOL_SIZE = 2;
  private static final int THREADS = 16;
  private static final Duration POOL_WAIT = Duration.ofMillis(500);
  private static final int HOLD_ROUNDS = 4;

  private JdbcQueueStore store;

  /** A fresh database for shard "1" whose pool waits the connect time-out (no H2 file floor). */
  abstract JdbcShardConfig newShard();

  /** Drops what {@link #newShard()} made, after the store is closed. */
  void dropStorage() {}

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    dropStorage();
  }

  @Test
  void aFullPoolMakesCallersWaitThenFailBusyWithoutMarkingTheShardDown() throws Exception {
    store =
        JdbcQueueStore.builder()
            .shards(List.of(newShard()))
            .poolSize(POOL_SIZE)
            .connectTimeout(POOL_WAIT)
            .unhealthyCooldown(Duration.ofSeconds(1))
            .build();
    ShardStore shard = store.shards().get(0);
    QueueService queue = QueueService.builder(store).build();
    // Opening a database can outlast the short wait on a loaded machine: that start is busy too,
    // not down.
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptionsMatching(PoolSaturationTest::isBusy)
        .until(
            () -> {
              queue.createQueue(QUEUE);
              return true;
            });
    assertThat(shard.healthy()).isTrue();

    Map<String, JobDescriptor> enqueued = new ConcurrentHashMap<>();
    Set<String> received = ConcurrentHashMap.newKeySet();
    Queue<String> duplicates = new ConcurrentLinkedQueue<>();
    Queue<String> unexpected = new ConcurrentLinkedQueue<>();
    Queue<String> unhealthy = new ConcurrentLinkedQueue<>();
    AtomicInteger busy = new AtomicInteger();
    AtomicBoolean holding = new AtomicBoolean(true);

    ExecutorService executor = Executors.newFixedThreadPool(THREADS + 1);
    try {
      Future<?> holder = executor.submit(() -> holdEveryConnectionNowAndThen(shard, holding));
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        String worker = "w" + t;
        workers.add(
            executor.submit(
                () -> {
                  for (int i = 0; holding.get(); i++) {
                    String body = worker + "-" + i;
                    Call call = new Call(shard, busy, unexpected, unhealthy);
                    call.run(
                        () ->
                            enqueued.put(
                                body, queue.enqueue(QUEUE, List.of(NewJob.of(body))).get(0)));
                    call.run(
                        () -> {
                          for (DequeuedJob job :
                              queue.dequeue(DequeueParams.of(QUEUE, 1, worker))) {
                            take(job, received, duplicates);
                            ackUntilDone(queue, job.descriptor(), call);
                          }
                        });
                  }
                }));
      }
      holder.get(2, TimeUnit.MINUTES);
      for (Future<?> worker : workers) {
        worker.get(2, TimeUnit.MINUTES);
      }
    } finally {
      holding.set(false);
      executor.shutdownNow();
    }

    assertThat(unhealthy).as("the shard must never be marked unhealthy by a full pool").isEmpty();
    assertThat(unexpected)
        .as("every failed call must be SHARD_BUSY with a clear message")
        .isEmpty();
    assertThat(busy.get())
        .as("callers beyond the pool must have waited in vain at least once")
        .isPositive();

    // Drain what is left with the pool free again: nothing lost, nothing twice.
    for (List<DequeuedJob> jobs;
        !(jobs = queue.dequeue(DequeueParams.of(QUEUE, 100, "drain"))).isEmpty(); ) {
      for (DequeuedJob job : jobs) {
        take(job, received, duplicates);
        queue.ack(new AckParams(QUEUE, List.of(AckParams.Item.of(job.descriptor())), List.of()));
      }
    }
    assertThat(duplicates).isEmpty();
    assertThat(received).containsExactlyInAnyOrderElementsOf(enqueued.keySet());
    assertThat(queue.count(CountParams.of(QUEUE, JobState.IN_PROGRESS))).isZero();
    assertThat(queue.count(CountParams.of(QUEUE, JobState.SUCCEEDED))).isEqualTo(enqueued.size());
    assertThat(shard.healthy()).isTrue();
  }

  /** Rounds of: take every connection of the pool, keep them three pool waits, give them back. */
  private static Void holdEveryConnectionNowAndThen(ShardStore shard, AtomicBoolean holding)
      throws Exception {
    DataSource pool = ((JdbcShardStore) shard).database().dataSource();
    try {
      for (int round = 0; round < HOLD_ROUNDS; round++) {
        List<Connection> held = new ArrayList<>();
        try {
          while (held.size() < POOL_SIZE) {
            try {
              held.add(pool.getConnection());
            } catch (SQLException e) {
              // the workers got there first and held the pool for a whole wait: try again
            }
          }
          Thread.sleep(3 * POOL_WAIT.toMillis());
        } finally {
          for (Connection c : held) {
            c.close();
          }
        }
        Thread.sleep(POOL_WAIT.toMillis());
      }
    } finally {
      holding.set(false);
    }
    return null;
  }

  private static boolean isBusy(Throwable e) {
    return e instanceof QueueException q && q.errorCode() == ErrorCode.SHARD_BUSY;
  }

  private static void take(DequeuedJob job, Set<String> received, Queue<String> duplicates) {
    String body = new String(job.body(), StandardCharsets.UTF_8);
    if (!received.add(body)) {
      duplicates.add(body);
    }
  }

  /** A dequeued job must be acked; a busy pool only delays that. */
  private static void ackUntilDone(QueueService queue, JobDescriptor job, Call call) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!call.run(
        () -> queue.ack(new AckParams(QUEUE, List.of(AckParams.Item.of(job)), List.of())))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("could not ack " + job + " within 60 s");
      }
    }
  }

  /** Runs calls of one worker and sorts their failures: SHARD_BUSY as specified, or unexpected. */
  private record Call(
      ShardStore shard, AtomicInteger busy, Queue<String> unexpected, Queue<String> unhealthy) {
    boolean run(Runnable call) {
      try {
        call.run();
        return true;
      } catch (QueueException e) {
        if (e.errorCode() == ErrorCode.SHARD_BUSY && isClearBusyMessage(e.getMessage())) {
          busy.incrementAndGet();
        } else {
          unexpected.add(e.toString());
        }
        return false;
      } finally {
        if (!shard.healthy()) {
          unhealthy.add("unhealthy after a call, at " + System.nanoTime());
        }
      }
    }

    private static boolean isClearBusyMessage(String message) {
      return message.contains("shard '1' is busy")
          && message.contains("total=")
          && message.contains("active=")
          && message.contains("idle=")
          && message.contains("waiting=")
          && message.contains("pool wait of " + POOL_WAIT.toMillis() + " ms");
    }
  }
}
