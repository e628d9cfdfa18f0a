package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.StoredJob;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A job hash that vanished (evicted under memory pressure, or deleted by hand) while its index
 * entry stayed: no operation fails, the job is skipped and its index entry removed.
 */
class EvictedHashTest extends RedisStoreTestBase {

  @Test
  void pendingJobWithoutHashIsSkippedByReadsAndDroppedByClaim() {
    long gone = enqueue(job("gone"));
    long kept = enqueue(job("kept"));
    evict(1, gone);

    assertThat(lookup(1, gone)).isNull();
    assertThat(shard.peek(QUEUE, 1, 10, T0)).extracting(StoredJob::localId).containsExactly(kept);
    assertThat(
            shard.scan(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, ScanBound.START, 10))
        .extracting(StoredJob::localId)
        .containsExactly(kept);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.of("."), T0, 10))
        .isEqualTo(1);

    assertThat(claim(1, 1, T0))
        .as("the claim fills its limit from the next job")
        .extracting(StoredJob::localId)
        .containsExactly(kept);
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, 10))
        .as("index cleaned")
        .isZero();
  }

  @Test
  void runningJobWithoutHashIsIgnoredByAckCheckpointAndTimeOut() {
    List<Long> ids = shard.enqueue(QUEUE, List.of(job("a"), job("b"), job("c")));
    claim(1, 10, T0);
    evict(1, ids.get(0));
    evict(1, ids.get(1));
    evict(1, ids.get(2));

    assertThat(shard.ackSucceeded(QUEUE, List.of(ack(1, ids.get(0))), T0)).isZero();
    assertThat(shard.ackFailed(QUEUE, List.of(ack(1, ids.get(1))), T0)).isZero();
    assertThat(
            shard.checkpoint(
                QUEUE,
                "worker-1",
                new CheckpointRecord(new JobRef(1, ids.get(2)), null, false, T0, null, null),
                T0))
        .isFalse();
    assertThat(shard.count(QUEUE, 1, JobState.IN_PROGRESS, false, BodyFilter.ALL, T0, 10)).isZero();
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0, 10)).isZero();
    assertThat(shard.count(QUEUE, 1, JobState.FAILED, false, BodyFilter.ALL, T0, 10)).isZero();
  }

  @Test
  void monitorAndBulkOperationsSkipMissingHashes() {
    List<Long> ids =
        shard.enqueue(
            QUEUE,
            List.of(
                job(utf8("a"), 1, T0, 1),
                job(utf8("b"), 1, T0, 1),
                job(utf8("c"), 1, T0, 1),
                job(utf8("d"), 1, T0, 1)));
    claim(1, 10, T0);
    evict(1, ids.get(0));
    assertThat(shard.timeOutClaims(T0 + 1, 100, T0 + 5).total()).isEqualTo(3);
    assertThat(shard.count(QUEUE, 1, JobState.FAILED, false, BodyFilter.ALL, T0 + 5, 10))
        .isEqualTo(3);

    evict(1, ids.get(1));
    assertThat(shard.retryFailed(QUEUE, 1, 1, T0, 1, T0 + 6))
        .as("fills the limit past the missing hash")
        .isEqualTo(1);
    evict(1, ids.get(3));
    assertThat(shard.deleteFinished(JobState.FAILED, T0 + 100, 100)).isEmpty();
    assertThat(shard.count(QUEUE, 1, JobState.FAILED, false, BodyFilter.ALL, T0 + 5, 10)).isZero();

    evict(1, ids.get(2));
    assertThat(shard.deleteJobs(QUEUE, 1, JobState.PENDING, BodyFilter.of("."), 10)).isZero();
    assertThat(shard.count(QUEUE, 1, JobState.PENDING, false, BodyFilter.ALL, T0 + 5, 10)).isZero();
  }

  private void evict(int priority, long id) {
    try (Jedis jedis = redis()) {
      assertThat(jedis.del(jobKey(priority, id))).isEqualTo(1);
    }
  }

  private static byte[] utf8(String text) {
    return RedisTestSupport.utf8(text);
  }
}
