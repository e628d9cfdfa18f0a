package dev.flipper.queue.mysql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/** {@link JdbcShardStoreTest} on MariaDB at 127.0.0.1:3306, a fresh database per test. */
@Tag("mariadb")
class MariaDbShardStoreTest extends JdbcShardStoreTest {
  private final TestDatabases databases = new TestDatabases();

  @Override
  JdbcShardConfig freshShard(String name) {
    return TestDatabases.mariaDbShard(name, databases.newMariaDb());
  }

  @AfterEach
  void dropDatabases() {
    try {
      if (store != null) {
        store.close(); // before the drop; closing again later is harmless
      }
    } finally {
      databases.close();
    }
  }
}
