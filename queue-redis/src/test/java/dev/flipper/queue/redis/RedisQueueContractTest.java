package dev.flipper.queue.redis;

import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.spi.QueueStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The storage contract on the local Redis (127.0.0.1:6379): every shard of a test is a shard name
 * on database 0 under the test's own key prefix, whose keys are deleted afterwards.
 */
@Tag("redis")
class RedisQueueContractTest extends QueueContractTest {
  private String prefix;
  private List<RedisShardConfig> shards;
  private FaultInjectingStore store;

  @Override
  protected QueueStore openStore(List<TestShard> testShards) {
    RedisTestSupport.requireRedis();
    prefix = RedisTestSupport.randomPrefix();
    shards =
        testShards.stream()
            .map(
                s ->
                    new RedisShardConfig(
                        s.name(),
                        RedisTestSupport.HOST,
                        RedisTestSupport.PORT,
                        0,
                        null,
                        s.dequeueOnly()))
            .toList();
    store = new FaultInjectingStore(open());
    return store;
  }

  @Override
  protected QueueStore openSecondStore() {
    return open();
  }

  @Override
  protected void dropStorage() {
    RedisTestSupport.deleteKeys(prefix);
  }

  @Override
  protected boolean setShardReachable(String shard, boolean reachable) {
    store.setReachable(shard, reachable);
    return true;
  }

  @Override
  protected boolean setShardHealthy(String shard, boolean healthy) {
    store.setHealthy(shard, healthy);
    return true;
  }

  private RedisQueueStore open() {
    return RedisQueueStore.builder()
        .shards(shards)
        .keyPrefix(prefix)
        .poolSize(8)
        .healthCheckInterval(Duration.ofSeconds(1))
        .build();
  }
}
