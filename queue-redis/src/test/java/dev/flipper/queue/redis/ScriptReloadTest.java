package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Scripts are called by EVALSHA and reloaded transparently after NOSCRIPT. SCRIPT FLUSH empties the
 * script cache of the whole server, so this test runs on a private redis-server instead of the
 * shared one.
 */
@Tag("redis")
class ScriptReloadTest {

  @Test
  void callsSucceedAfterTheServerForgetsEveryScript() {
    try (PrivateRedis redis = new PrivateRedis();
        RedisQueueStore store =
            RedisQueueStore.builder()
                .shards(List.of(RedisShardConfig.of("1", "127.0.0.1", redis.port())))
                .healthCheckInterval(Duration.ofSeconds(1))
                .build()) {
      ShardStore shard = store.shards().get(0);
      shard.createQueue("q");
      long first = shard.enqueue("q", List.of(job("a"))).get(0);

      try (Jedis jedis = redis.jedis()) {
        jedis.scriptFlush();
        assertThat(jedis.scriptExists("0000000000000000000000000000000000000000")).isFalse();
      }

      long second = shard.enqueue("q", List.of(job("b"))).get(0);
      assertThat(shard.claim("q", 1, 10, new Claim("d", "w", 10))).hasSize(2);
      try (Jedis jedis = redis.jedis()) {
        jedis.scriptFlush();
      }
      assertThat(shard.ackSucceeded("q", List.of(ack(first), ack(second)), 20)).isEqualTo(2);
    }
  }

  private static NewJobRecord job(String body) {
    return new NewJobRecord(1, RedisTestSupport.utf8(body), 0, 1, "", 0);
  }

  private static AckRecord ack(long id) {
    return new AckRecord(new JobRef(1, id), "", 0);
  }
}
