package dev.flipper.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.AckParams;
import dev.flipper.queue.CountParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobInfo;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.ScanParams;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ShardStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Dead shards report unhealthy and fail with SHARD_CONNECTION_FAILED; live shards are not
 * disturbed.
 */
@Tag("redis")
class ShardHealthTest {
  private String prefix;

  @BeforeEach
  void requireRedis() {
    RedisTestSupport.requireRedis();
    prefix = RedisTestSupport.randomPrefix();
  }

  @AfterEach
  void deleteKeys() {
    RedisTestSupport.deleteKeys(prefix);
  }

  @Test
  void aShardOnAClosedPortIsDeadWhileTheLiveShardServesEveryRequest() {
    int closedPort = PrivateRedis.freePort();
    try (RedisQueueStore store =
        RedisQueueStore.builder()
            .shards(
                List.of(
                    RedisShardConfig.of("live", RedisTestSupport.HOST, RedisTestSupport.PORT),
                    RedisShardConfig.of("dead", "127.0.0.1", closedPort)))
            .keyPrefix(prefix)
            .healthCheckInterval(Duration.ofMillis(100))
            .build()) {
      ShardStore live = store.shards().get(0);
      ShardStore dead = store.shards().get(1);

      // The start-up persistence check already failed to connect, which marks the shard dead at
      // once.
      assertThat(dead.healthy()).isFalse();
      QueueException e = catchThrowableOfType(QueueException.class, () -> dead.createQueue("q"));
      assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
      assertThat(e.getMessage()).contains("127.0.0.1:" + closedPort).contains("'dead'");

      live.createQueue("q");
      for (int i = 0; i < 20; i++) {
        live.enqueue("q", List.of(new NewJobRecord(1, new byte[] {1}, 0, 1, "", 0)));
      }
      assertThat(live.healthy()).isTrue();
      assertThat(live.claim("q", 1, 100, new dev.flipper.queue.spi.Claim("d", "w", 1))).hasSize(20);
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .until(() -> !dead.healthy());
    }
  }

  @Test
  void theServiceServesEveryRequestTheLiveShardCanWhileAShardIsDead() {
    int closedPort = PrivateRedis.freePort();
    try (RedisQueueStore store =
        RedisQueueStore.builder()
            .shards(
                List.of(
                    RedisShardConfig.of("live", RedisTestSupport.HOST, RedisTestSupport.PORT),
                    RedisShardConfig.of("dead", "127.0.0.1", closedPort)))
            .keyPrefix(prefix)
            .build()) {
      store
          .shards()
          .get(0)
          .createQueue("q"); // the dead shard cannot get the queue; createQueue needs all
      QueueService service = QueueService.builder(store).build();

      List<JobDescriptor> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.addAll(service.enqueue("q", List.of(NewJob.of("job " + i))));
      }
      assertThat(ids).extracting(JobDescriptor::shard).containsOnly("live");
      assertThat(service.count(CountParams.of("q", JobState.PENDING))).isEqualTo(20);
      List<DequeuedJob> claimed = service.dequeue(DequeueParams.of("q", 100, "worker"));
      assertThat(claimed)
          .extracting(DequeuedJob::descriptor)
          .containsExactlyInAnyOrderElementsOf(ids);
      service.ack(
          new AckParams(
              "q",
              claimed.stream().map(job -> AckParams.Item.of(job.descriptor())).toList(),
              List.of()));
      assertThat(service.lookup(ids, false).values())
          .extracting(JobInfo::state)
          .containsOnly(JobState.SUCCEEDED);
      assertThat(service.scan(ScanParams.of("q", JobState.SUCCEEDED)).jobs()).hasSize(20);
    }
  }

  @Test
  void aShardThatGoesDownIsMarkedDeadAndLiveAgainAfterItReturns() {
    try (PrivateRedis redis = new PrivateRedis();
        RedisQueueStore store =
            RedisQueueStore.builder()
                .shards(List.of(RedisShardConfig.of("1", "127.0.0.1", redis.port())))
                .healthCheckInterval(Duration.ofMillis(100))
                .deadAfterFailures(2)
                .liveAfterSuccesses(2)
                .build()) {
      ShardStore shard = store.shards().get(0);
      shard.createQueue("q");
      assertThat(shard.healthy()).isTrue();

      redis.stop();
      await().atMost(Duration.ofSeconds(5)).until(() -> !shard.healthy());
      QueueException e = catchThrowableOfType(QueueException.class, () -> shard.queueNames());
      assertThat(e.errorCode()).isEqualTo(ErrorCode.SHARD_CONNECTION_FAILED);
      assertThat(e.getMessage()).contains("127.0.0.1:" + redis.port());

      redis.start();
      await().atMost(Duration.ofSeconds(5)).until(shard::healthy);
      // A fresh server knows neither the data nor the scripts; the store reloads the scripts.
      shard.createQueue("q");
      assertThat(shard.enqueue("q", List.of(new NewJobRecord(1, new byte[] {1}, 0, 1, "", 0))))
          .hasSize(1);
    }
  }
}
