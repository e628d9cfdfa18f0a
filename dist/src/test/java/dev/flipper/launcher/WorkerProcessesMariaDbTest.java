package dev.flipper.launcher;

import dev.flipper.queue.testing.TestServices;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;

/**
 * On a fresh MariaDB database at 127.0.0.1:3306 (root, no password), dropped after the test. Not
 * through queue-mysql's TestDatabases: its test jar's logback-test.xml would replace the launcher's
 * logging in the processes this test starts.
 */
@Tag("mariadb")
class WorkerProcessesMariaDbTest extends WorkerProcessesContract {
  static final String SERVER = "jdbc:mysql://127.0.0.1:3306/";
  private String database;

  @Override
  String tokenDatabase(Path dir) {
    if (database == null) {
      database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      execute("CREATE DATABASE " + database + " CHARACTER SET utf8mb4");
    }
    return SERVER + database;
  }

  @AfterEach
  void dropDatabase() {
    if (database != null) {
      execute("DROP DATABASE IF EXISTS " + database);
    }
  }

  /**
   * Runs one statement on the MariaDB server (other process tests create and drop their databases
   * with it).
   */
  static void execute(String sql) {
    TestServices.requireMariaDb();
    try (Connection c = DriverManager.getConnection(SERVER, "root", "");
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "MariaDB at 127.0.0.1:3306 (root, empty password) is required: " + e, e);
    }
  }
}
