package dev.flipper.queue.mysql;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link JdbcShardStoreTest} on an embedded H2 file database in MySQL mode. */
class H2ShardStoreTest extends JdbcShardStoreTest {
  @TempDir Path dir;

  @Override
  JdbcShardConfig freshShard(String name) {
    return TestDatabases.h2Shard(name, dir);
  }
}
