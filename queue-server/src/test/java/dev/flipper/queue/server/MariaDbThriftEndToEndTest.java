package dev.flipper.queue.server;

import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.spi.QueueStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * MariaDB at 127.0.0.1:3306 (root, empty password): two databases {@code flipper_t_<random>} per test, dropped
 * afterwards. Fails (never skips) when MariaDB is not running: start it with scripts/ensure-services.sh.
 */
class MariaDbThriftEndToEndTest extends ThriftEndToEndTest {
  private static final String SERVER = "jdbc:mysql://127.0.0.1:3306/";
  private final List<String> databases = new ArrayList<>();

  @Override
  protected QueueStore openStore() {
    List<JdbcShardConfig> shards = new ArrayList<>();
    for (String shard : List.of("1", "2")) {
      String database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
      databases.add(database);
      shards.add(new JdbcShardConfig(shard, SERVER + database, "root", "", false));
    }
    return JdbcQueueStore.builder().shards(shards).build();
  }

  @Override
  protected void dropStorage() {
    for (String database : databases) {
      execute("DROP DATABASE IF EXISTS " + database);
    }
  }

  private static void execute(String sql) {
    try (Connection connection = DriverManager.getConnection(SERVER, "root", "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("MariaDB at 127.0.0.1:3306 (root, empty password) is needed: " + e.getMessage()
          + "; run scripts/ensure-services.sh", e);
    }
  }
}
