package dev.flipper.queue.redis;

import dev.flipper.queue.redis.internal.RedisShard;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import redis.clients.jedis.Jedis;

/** A store with one shard "1" over a fresh key prefix, and helpers that talk SPI. */
@Tag("redis")
abstract class RedisStoreTestBase {
  static final String QUEUE = "q";
  static final long T0 = 1_710_072_000_123L; // 2024-03-10T12:00:00.123Z, not on a whole second

  String prefix;
  RedisQueueStore store;
  ShardStore shard;

  @BeforeEach
  void openStore() {
    RedisTestSupport.requireRedis();
    prefix = RedisTestSupport.randomPrefix();
    store = RedisTestSupport.store(prefix, "1");
    shard = store.shards().get(0);
    shard.createQueue(QUEUE);
  }

  @AfterEach
  void closeStore() {
    store.close();
    RedisTestSupport.deleteKeys(prefix);
  }

  static NewJobRecord job(String body) {
    return job(body.getBytes(StandardCharsets.UTF_8), 1, T0, 2);
  }

  static NewJobRecord job(byte[] body, int priority, long runAfter, int attempts) {
    return new NewJobRecord(priority, body, runAfter, attempts, "", T0);
  }

  long enqueue(NewJobRecord job) {
    return shard.enqueue(QUEUE, List.of(job)).get(0);
  }

  List<StoredJob> claim(int priority, int limit, long now) {
    return shard.claim(QUEUE, priority, limit, new Claim("desc-" + now, "worker-1", now));
  }

  StoredJob lookup(int priority, long id) {
    return shard.lookup(QUEUE, new JobRef(priority, id), true).orElse(null);
  }

  static AckRecord ack(int priority, long id) {
    return new AckRecord(new JobRef(priority, id), "", 0);
  }

  static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The key of a job's hash, for tests that tamper with Redis directly. */
  String jobKey(int priority, long id) {
    return new String(
        ((RedisShard) shard).keys().queue(QUEUE).priority(priority).job(id),
        StandardCharsets.UTF_8);
  }

  static Jedis redis() {
    return new Jedis(RedisTestSupport.HOST, RedisTestSupport.PORT);
  }
}
