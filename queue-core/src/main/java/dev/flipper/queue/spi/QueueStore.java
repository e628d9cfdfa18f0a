package dev.flipper.queue.spi;

import java.util.List;

/**
 * A sharded job store. Thread-safe. The shard list may change while running (configuration reload).
 */
public interface QueueStore extends AutoCloseable {

  /**
   * The shards as configured now, in configuration order. Callers take one snapshot per request.
   */
  List<ShardStore> shards();

  /** Releases connections. */
  @Override
  void close();
}
