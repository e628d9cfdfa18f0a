package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.internal.Database;
import dev.flipper.jdbc.internal.SqlFailure;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;

/**
 * One shard's failures as QueueExceptions that name the shard: unreachable →
 * SHARD_CONNECTION_FAILED and the {@link ShardHealth} breaker opens; busy (a full pool) →
 * SHARD_BUSY and the shard stays healthy; anything else → UNKNOWN. Thread-safe.
 */
final class ShardErrors implements Database.FailureHandler {
  private final String shardName;
  private final String maskedUrl;
  private final ShardHealth health;

  ShardErrors(String shardName, String maskedUrl, ShardHealth health) {
    this.shardName = shardName;
    this.maskedUrl = maskedUrl;
    this.health = health;
  }

  /** Fails fast with SHARD_CONNECTION_FAILED while the breaker is open. */
  void checkAvailable(String operation) {
    if (!health.healthy()) {
      throw new QueueException(
          ErrorCode.SHARD_CONNECTION_FAILED,
          "shard '"
              + shardName
              + "' ("
              + maskedUrl
              + ") is unreachable, "
              + operation
              + " not attempted; next try in "
              + health.millisUntilRetry()
              + " ms; last failure: "
              + health.lastFailure());
    }
  }

  @Override
  public QueueException toException(SqlFailure failure) {
    String unknown =
        failure.outcomeUnknown() ? "; the commit failed, so whether it was applied is unknown" : "";
    return switch (failure.kind()) {
      case UNREACHABLE -> {
        health.markUnreachable(failure.reason());
        yield new QueueException(
            ErrorCode.SHARD_CONNECTION_FAILED,
            "shard '"
                + shardName
                + "' ("
                + maskedUrl
                + ") could not be reached during "
                + failure.operation()
                + ": "
                + failure.reason()
                + unknown,
            failure.cause());
      }
      case BUSY ->
          new QueueException(
              ErrorCode.SHARD_BUSY,
              "shard '"
                  + shardName
                  + "' is busy, "
                  + failure.operation()
                  + " not done: "
                  + failure.reason()
                  + ". Retry later, or raise poolSize if this"
                  + " persists",
              failure.cause());
      case FAILED ->
          new QueueException(
              ErrorCode.UNKNOWN,
              failure.operation()
                  + " failed on shard '"
                  + shardName
                  + "': "
                  + failure.reason()
                  + unknown,
              failure.cause());
    };
  }
}
