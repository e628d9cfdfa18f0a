package dev.flipper.queue.mysql;

import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.spi.QueueStore;
import java.util.ArrayList;
import java.util.List;

/** The storage contract over {@link JdbcQueueStore}; subclasses make the databases. */
abstract class JdbcQueueContractTest extends QueueContractTest {
  private final FaultInjectingStore.Faults faults = new FaultInjectingStore.Faults();
  private List<JdbcShardConfig> configs;

  /** A fresh, empty database for one shard. */
  abstract JdbcShardConfig newShard(String name, boolean dequeueOnly);

  @Override
  protected QueueStore openStore(List<TestShard> shards) {
    configs = new ArrayList<>();
    try {
      for (TestShard shard : shards) {
        configs.add(newShard(shard.name(), shard.dequeueOnly()));
      }
      return open();
    } catch (RuntimeException | Error e) {
      dropStorage(); // the suite drops storage only for a store that opened
      throw e;
    }
  }

  @Override
  protected QueueStore openSecondStore() {
    return open();
  }

  private QueueStore open() {
    return new FaultInjectingStore(
        JdbcQueueStore.builder().shards(configs).poolSize(4).build(), faults);
  }

  @Override
  protected boolean setShardReachable(String shard, boolean reachable) {
    if (reachable) {
      faults.unreachable.remove(shard);
    } else {
      faults.unreachable.add(shard);
    }
    return true;
  }

  @Override
  protected boolean setShardHealthy(String shard, boolean healthy) {
    faults.healthOverride.put(shard, healthy);
    return true;
  }
}
