package dev.flipper.queue.memory;

import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.spi.QueueStore;
import java.util.List;

/** The storage contract over {@link InMemoryQueueStore}, with failure injection. */
class InMemoryQueueContractTest extends QueueContractTest {
  private InMemoryQueueStore store;

  @Override
  protected QueueStore openStore(List<TestShard> shards) {
    InMemoryQueueStore.Builder builder = InMemoryQueueStore.builder();
    for (TestShard shard : shards) {
      if (shard.dequeueOnly()) {
        builder.dequeueOnlyShard(shard.name());
      } else {
        builder.shard(shard.name());
      }
    }
    store = builder.build();
    return store;
  }

  @Override
  protected QueueStore openSecondStore() {
    return store.sharingStorage();
  }

  @Override
  protected boolean setShardReachable(String shard, boolean reachable) {
    store.shard(shard).setReachable(reachable);
    return true;
  }

  @Override
  protected boolean setShardHealthy(String shard, boolean healthy) {
    store.shard(shard).setHealthy(healthy);
    return true;
  }
}
