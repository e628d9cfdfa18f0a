package dev.flipper.queue.server;

import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;

/**
 * The queue contract through Thrift on MariaDB at 127.0.0.1:3306 (root, empty password): a database
 * {@code flipper_t_<random>} per shard and test, dropped afterwards. Fails (never skips) when
 * MariaDB is not running: start it with scripts/ensure-services.sh.
 */
@Tag("mariadb")
class ThriftMariaDbContractTest extends ThriftJdbcContractTest {
  private static final String SERVER = "jdbc:mysql://127.0.0.1:3306/";
  private final List<String> databases = new ArrayList<>();

  @Override
  JdbcShardConfig newShard(String name) {
    String database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
    databases.add(database);
    return new JdbcShardConfig(name, SERVER + database, "root", "", false);
  }

  @Override
  protected void dropStorage() {
    for (String database : databases) {
      execute("DROP DATABASE IF EXISTS " + database);
    }
    databases.clear();
  }

  private static void execute(String sql) {
    TestServices.requireMariaDb();
    try (Connection connection = DriverManager.getConnection(SERVER, "root", "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "MariaDB at 127.0.0.1:3306 (root, empty password) is needed: "
              + e.getMessage()
              + "; run scripts/ensure-services.sh",
          e);
    }
  }
}
