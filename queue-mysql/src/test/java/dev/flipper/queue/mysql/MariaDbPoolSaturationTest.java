package dev.flipper.queue.mysql;

import org.junit.jupiter.api.Tag;

/** {@link PoolSaturationTest} on MariaDB (127.0.0.1:3306), a fresh database per test. */
@Tag("mariadb")
class MariaDbPoolSaturationTest extends PoolSaturationTest {
  private final TestDatabases databases = new TestDatabases();

  @Override
  JdbcShardConfig newShard() {
    return TestDatabases.mariaDbShard("1", databases.newMariaDb());
  }

  @Override
  void dropStorage() {
    databases.close();
  }
}
