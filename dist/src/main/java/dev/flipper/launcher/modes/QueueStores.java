package dev.flipper.launcher.modes;

import dev.flipper.config.StorageBackend;
import dev.flipper.config.StorageConfig;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.spi.QueueStore;
import java.util.Optional;

/**
 * Opens the queue store that the {@code storage} section describes, and applies shard changes to
 * it: the part of the queue daemon ({@code QueueDaemon} of queue-server) that knows the backends.
 */
public final class QueueStores {
  private QueueStores() {}

  /** Opens the store; the caller (the queue daemon) closes it. */
  public static QueueStore open(StorageConfig storage) {
    return switch (storage.backend()) {
      case JDBC ->
          JdbcQueueStore.builder()
              .shards(storage.jdbc().shards())
              .poolSize(storage.jdbc().poolSize())
              .build();
      case REDIS ->
          RedisQueueStore.builder()
              .shards(storage.redis().shards())
              .keyPrefix(storage.redis().keyPrefix())
              .build();
    };
  }

  /**
   * Applies the shard list of {@code changed} to a running store of the same backend: new shards
   * open (and get every existing queue), removed ones close, dequeue-only flags flip. When the
   * backend itself changed, which needs a restart, returns why nothing was applied.
   */
  public static Optional<String> reconfigure(
      QueueStore store, StorageConfig current, StorageConfig changed) {
    if (store instanceof JdbcQueueStore jdbc && changed.backend() == StorageBackend.JDBC) {
      jdbc.reconfigure(changed.jdbc().shards());
      return Optional.empty();
    }
    if (store instanceof RedisQueueStore redis && changed.backend() == StorageBackend.REDIS) {
      redis.reconfigure(changed.redis().shards());
      return Optional.empty();
    }
    return Optional.of(
        "storage.backend changed from "
            + current.backend()
            + " to "
            + changed.backend()
            + "; restart the queue daemon to switch backends");
  }
}
