package dev.flipper.launcher.modes;

import dev.flipper.config.StorageConfig;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.spi.QueueStore;
import java.util.List;

/** Opens the queue store that the {@code storage} section describes, and applies shard changes to it. */
final class QueueStores {
  private QueueStores() {}

  static QueueStore open(StorageConfig storage) {
    return switch (storage.backend()) {
      case JDBC -> JdbcQueueStore.builder().shards(jdbcShards(storage)).poolSize(storage.jdbc().poolSize()).build();
      case REDIS -> RedisQueueStore.builder().shards(redisShards(storage)).keyPrefix(storage.redis().keyPrefix()).build();
    };
  }

  /**
   * Applies the shard list of {@code storage} to a running store of the same backend: new shards open (and
   * get every existing queue), removed ones close, dequeue-only flags flip. Returns false when the backend
   * itself changed, which needs a restart.
   */
  static boolean reconfigure(QueueStore store, StorageConfig storage) {
    if (store instanceof JdbcQueueStore jdbc && storage.backend() == dev.flipper.config.StorageBackend.JDBC) {
      jdbc.reconfigure(jdbcShards(storage));
      return true;
    }
    if (store instanceof RedisQueueStore redis && storage.backend() == dev.flipper.config.StorageBackend.REDIS) {
      redis.reconfigure(redisShards(storage));
      return true;
    }
    return false;
  }

  private static List<JdbcShardConfig> jdbcShards(StorageConfig storage) {
    return storage.jdbc().shards().stream()
        .map(s -> new JdbcShardConfig(s.name(), s.url(), s.user(), s.password(), s.dequeueOnly()))
        .toList();
  }

  private static List<RedisShardConfig> redisShards(StorageConfig storage) {
    return storage.redis().shards().stream()
        .map(s -> new RedisShardConfig(s.name(), s.host(), s.port(), s.database(), s.password(), s.dequeueOnly()))
        .toList();
  }
}
