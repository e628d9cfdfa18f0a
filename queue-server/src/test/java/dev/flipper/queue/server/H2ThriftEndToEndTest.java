package dev.flipper.queue.server;

import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.spi.QueueStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** Embedded H2 (MySQL mode) files in a temporary folder, one per shard. */
class H2ThriftEndToEndTest extends ThriftEndToEndTest {
  @TempDir
  Path dir;

  @Override
  protected QueueStore openStore() {
    return JdbcQueueStore.builder().shards(List.of(
        JdbcShardConfig.embedded("1", dir.resolve("shard1")),
        JdbcShardConfig.embedded("2", dir.resolve("shard2")))).build();
  }
}
