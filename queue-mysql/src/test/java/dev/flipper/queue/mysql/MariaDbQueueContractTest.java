package dev.flipper.queue.mysql;

import org.junit.jupiter.api.Tag;

/** The storage contract on MariaDB at 127.0.0.1:3306, a fresh database per shard and test. */
@Tag("mariadb")
class MariaDbQueueContractTest extends JdbcQueueContractTest {
  private final TestDatabases databases = new TestDatabases();

  @Override
  JdbcShardConfig newShard(String name, boolean dequeueOnly) {
    return TestDatabases.mariaDbShard(name, databases.newMariaDb()).withDequeueOnly(dequeueOnly);
  }

  @Override
  protected void dropStorage() {
    databases.close();
  }
}
