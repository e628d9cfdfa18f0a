package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.NewJobRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deleteQueue removes every key of the queue: all states, hashes, indexes, the priority set and
 * meta.
 */
class DeleteQueueTest extends RedisStoreTestBase {

  @Test
  void noKeyOfTheQueueIsLeftBehind() {
    shard.createQueue("neighbour");
    shard.enqueue("neighbour", List.of(job("stays")));
    List<NewJobRecord> jobs = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) { // more than one deletion chunk
      jobs.add(job(utf8("job " + i), 1 + i % 3, T0, 1 + i % 2));
    }
    List<Long> ids = shard.enqueue(QUEUE, jobs);
    for (int priority = 1; priority <= 3; priority++) {
      shard.claim(QUEUE, priority, 400, new Claim("d", "w", T0));
    }
    // Some of each priority succeed, some fail or retry; the rest stay running or pending.
    List<dev.flipper.queue.spi.AckRecord> succeeded = new ArrayList<>();
    List<dev.flipper.queue.spi.AckRecord> failed = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      (i % 2 == 0 ? succeeded : failed).add(ack(1 + i % 3, ids.get(i)));
    }
    shard.ackSucceeded(QUEUE, succeeded, T0 + 1);
    shard.ackFailed(QUEUE, failed, T0 + 1);
    String queueKeys = prefix + "{1:" + QUEUE + "}";
    assertThat(RedisTestSupport.keys(queueKeys)).hasSizeGreaterThan(2_500);

    shard.deleteQueue(QUEUE);

    assertThat(RedisTestSupport.keys(queueKeys)).isEmpty();
    assertThat(shard.queueNames()).containsExactly("neighbour");
    assertThat(shard.queueExists(QUEUE)).isFalse();
    assertThat(RedisTestSupport.keys(prefix + "{1:neighbour}")).isNotEmpty();

    shard.deleteQueue("neighbour");
    // Only the shard's id counter remains: ids are never reused, even by a re-created queue.
    assertThat(RedisTestSupport.keys(prefix)).containsExactly(prefix + "{1}:ids");
    shard.createQueue(QUEUE);
    assertThat(enqueue(job("new"))).isGreaterThan(ids.get(ids.size() - 1));
  }

  private static byte[] utf8(String text) {
    return RedisTestSupport.utf8(text);
  }
}
