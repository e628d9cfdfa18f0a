package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.internal.RedisShard;
import dev.flipper.queue.redis.internal.ShardConnection;
import dev.flipper.queue.spi.ShardStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Redis restart costs about the restart, not one failed request (and one dead/alive cycle) per
 * pooled connection: after a connection error, and when the shard is live again, the idle pooled
 * connections to the old server process are dropped. On a private redis-server (stopping the shared
 * one would disturb others).
 */
@Tag("redis")
class RedisRestartTest {
  private static final int POOL = 8;

  @Test
  void afterARestartUnnoticedByPingsOnlyTheFirstCallFails() throws Exception {
    try (PrivateRedis redis = new PrivateRedis();
        RedisQueueStore store = store(redis, Duration.ofHours(1))) {
      ShardConnection connection = connectionOf(store.shards().get(0));
      fillThePool(connection);

      redis.stop();
      redis.start();

      assertThat(failuresIn(connection, 2 * POOL)).isLessThanOrEqualTo(1);
    }
  }

  @Test
  void onceThePingsSeeTheShardLiveAgainNoCallFails() throws Exception {
    try (PrivateRedis redis = new PrivateRedis();
        RedisQueueStore store = store(redis, Duration.ofMillis(100))) {
      ShardStore shard = store.shards().get(0);
      ShardConnection connection = connectionOf(shard);
      fillThePool(connection);

      redis.stop();
      await().atMost(Duration.ofSeconds(30)).until(() -> !shard.healthy());
      redis.start();
      await().atMost(Duration.ofSeconds(30)).until(shard::healthy);

      assertThat(failuresIn(connection, 2 * POOL)).isZero();
    }
  }

  private static RedisQueueStore store(PrivateRedis redis, Duration healthCheckInterval) {
    return RedisQueueStore.builder()
        .shards(List.of(RedisShardConfig.of("1", "127.0.0.1", redis.port())))
        .poolSize(POOL)
        .healthCheckInterval(healthCheckInterval)
        .deadAfterFailures(1)
        .liveAfterSuccesses(1)
        .build();
  }

  private static ShardConnection connectionOf(ShardStore shard) {
    return ((RedisShard) shard).connection();
  }

  /**
   * Borrows every pooled connection at once, so that the pool holds POOL idle connections
   * afterwards.
   */
  private static void fillThePool(ShardConnection connection) throws Exception {
    CyclicBarrier allBorrowed = new CyclicBarrier(POOL);
    ExecutorService threads = Executors.newFixedThreadPool(POOL);
    try {
      List<Future<String>> pings = new ArrayList<>();
      for (int i = 0; i < POOL; i++) {
        pings.add(
            threads.submit(
                () ->
                    connection.call(
                        "ping",
                        null,
                        jedis -> {
                          try {
                            allBorrowed.await(30, TimeUnit.SECONDS);
                          } catch (Exception e) {
                            throw new IllegalStateException(e);
                          }
                          return jedis.ping();
                        })));
      }
      for (Future<String> ping : pings) {
        assertThat(ping.get(60, TimeUnit.SECONDS)).isEqualTo("PONG");
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static int failuresIn(ShardConnection connection, int calls) {
    int failures = 0;
    for (int i = 0; i < calls; i++) {
      try {
        String reply = connection.call("ping", null, jedis -> jedis.ping());
        assertThat(reply).isEqualTo("PONG");
      } catch (QueueException e) {
        failures++;
      }
    }
    return failures;
  }
}
