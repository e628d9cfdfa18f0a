package dev.flipper.queue.server;

import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.spi.QueueStore;

class InMemoryThriftEndToEndTest extends ThriftEndToEndTest {
  @Override
  protected QueueStore openStore() {
    return InMemoryQueueStore.withShards("1", "2");
  }
}
