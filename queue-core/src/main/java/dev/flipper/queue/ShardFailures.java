package dev.flipper.queue;

import dev.flipper.queue.spi.ShardStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards one request had to skip because they could not be reached (SHARD_CONNECTION_FAILED) or
 * were busy (SHARD_BUSY). Every other error is rethrown at once. When no shard answered at all, the
 * request fails with the first such error instead of returning a made-up empty result. Not
 * thread-safe; one per request.
 */
final class ShardFailures {
  private static final Logger log = LoggerFactory.getLogger(QueueService.class);

  private final String operation;
  private boolean anyAnswered;
  private QueueException first;

  ShardFailures(String operation) {
    this.operation = operation;
  }

  void answered() {
    anyAnswered = true;
  }

  /** Records an unreachable or busy shard, logging one line; rethrows every other error. */
  void skip(ShardStore shard, QueueException e) {
    if (!e.errorCode().shardUnavailable()) {
      throw e;
    }
    log.warn("{}: skipping shard {}: {}", operation, shard.name(), e.getMessage());
    first = first == null ? e : first;
  }

  void throwIfNoneAnswered() {
    if (!anyAnswered && first != null) {
      throw first;
    }
  }
}
