package dev.flipper.queue.server;

import dev.flipper.queue.JobQueue;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.spi.QueueStore;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The whole queue contract through the wire, over the in-memory store: every service of a test sits
 * behind a {@link QueueServer} on an ephemeral port and the tests talk to it with a {@link
 * dev.flipper.queue.client.ThriftJobQueue}, so every argument, result and error crosses Thrift both
 * ways. The store's failure injection runs the unhealthy and unreachable shard tests too.
 */
@Tag("slow")
class ThriftInMemoryContractTest extends QueueContractTest {
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
  protected JobQueue expose(QueueService service) {
    return RemoteJobQueue.serve(service);
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
