package dev.flipper.launcher.modes;

import dev.flipper.config.StorageBackend;
import dev.flipper.config.StorageConfig;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.spi.QueueStore;

/** Opens the queue store that the {@code storage} section describes, and applies shard changes to it. */
final class QueueStores {
  private QueueStores() {}

  static QueueStore open(StorageConfig storage) {
    return switch (storage.backend()) {
      case JDBC -> JdbcQueueStore.builder().shards(storage.jdbc().shards()).poolSize(storage.jdbc().poolSize()).build();
      case REDIS -> RedisQueueStore.builder().shards(storage.redis().shards()).keyPrefix(storage.redis().keyPrefix()).build();
    };
  }

  /**
   * Applies the shard list of {@code storage} to a running store of the same backend: new shards open (and
   * get every existing queue), removed ones close, dequeue-only flags flip. Returns false when the backend
   * itself changed, which needs a restart.
   */
  static boolean reconfigure(QueueStore store, StorageConfig storage) {
    if (store instanceof JdbcQueueStore jdbc && storage.backend() == StorageBackend.JDBC) {
      jdbc.reconfigure(storage.jdbc().shards());
      return true;
    }
    if (store instanceof RedisQueueStore redis && storage.backend() == StorageBackend.REDIS) {
      redis.reconfigure(storage.redis().shards());
      return true;
    }
    return false;
  }
}
