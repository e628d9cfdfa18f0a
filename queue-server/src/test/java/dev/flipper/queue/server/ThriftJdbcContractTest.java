package dev.flipper.queue.server;

import dev.flipper.queue.JobQueue;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.contract.QueueContractTest;
import dev.flipper.queue.contract.TestShard;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.spi.QueueStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole queue contract through the wire (see {@link ThriftInMemoryContractTest}) over {@link
 * JdbcQueueStore}; subclasses make the databases. Shard failures are not injected here (the
 * fault-injecting store lives in queue-mysql's tests), so the tests that need them are skipped: the
 * in-memory Thrift run covers how those errors cross the wire, queue-mysql's own run covers the
 * store.
 */
abstract class ThriftJdbcContractTest extends QueueContractTest {
  private List<JdbcShardConfig> configs;

  /** A fresh, empty database for one shard. */
  abstract JdbcShardConfig newShard(String name);

  @Override
  protected QueueStore openStore(List<TestShard> shards) {
    configs = new ArrayList<>();
    for (TestShard shard : shards) {
      configs.add(newShard(shard.name()).withDequeueOnly(shard.dequeueOnly()));
    }
    return open();
  }

  @Override
  protected QueueStore openSecondStore() {
    return open();
  }

  @Override
  protected JobQueue expose(QueueService service) {
    return RemoteJobQueue.serve(service);
  }

  private QueueStore open() {
    return JdbcQueueStore.builder().shards(configs).poolSize(4).build();
  }
}
