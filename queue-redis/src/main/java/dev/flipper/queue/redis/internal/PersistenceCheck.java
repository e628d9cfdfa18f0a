package dev.flipper.queue.redis.internal;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Warns when a shard's Redis keeps nothing on disk, so a restart would lose every job. */
public final class PersistenceCheck {
  private static final Logger log = LoggerFactory.getLogger(PersistenceCheck.class);

  private PersistenceCheck() {}

  public static void run(ShardConnection connection) {
    String name = connection.config().name();
    String address = connection.config().address();
    try {
      Map<String, String> aof =
          connection.call("CONFIG GET appendonly", null, jedis -> jedis.configGet("appendonly"));
      Map<String, String> rdb =
          connection.call("CONFIG GET save", null, jedis -> jedis.configGet("save"));
      String appendOnly = aof.getOrDefault("appendonly", "");
      String save = rdb.getOrDefault("save", "");
      if (!"yes".equalsIgnoreCase(appendOnly) && save.isBlank()) {
        log.warn(
            "Redis shard '{}' at {} has neither AOF (appendonly {}) nor RDB snapshots (save \"\"): a Redis "
                + "restart loses every job of this shard. Set appendonly yes (see docs/redis.md).",
            name,
            address,
            appendOnly);
      } else if (!"yes".equalsIgnoreCase(appendOnly)) {
        log.info(
            "Redis shard '{}' at {} persists by RDB snapshots only (save \"{}\"): a crash loses the jobs "
                + "changed since the last snapshot",
            name,
            address,
            save);
      }
    } catch (QueueException e) {
      if (e.errorCode() == ErrorCode.SHARD_CONNECTION_FAILED) {
        log.warn(
            "Redis shard '{}' at {} is unreachable at start: {}", name, address, e.getMessage());
      } else {
        // CONFIG is often renamed or disabled on managed Redis; that is not an error.
        log.info(
            "cannot check the persistence settings of Redis shard '{}' at {}: {}",
            name,
            address,
            e.getMessage());
      }
    }
  }
}
