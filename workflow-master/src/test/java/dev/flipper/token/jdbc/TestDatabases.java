package dev.flipper.token.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Fresh, isolated databases for tests: MariaDB databases {@code flipper_t_<random>} on 127.0.0.1:3306 (root,
 * empty password) and H2 files in a temporary folder. Drops only what it created. Not thread-safe.
 */
public final class TestDatabases implements AutoCloseable {
  public static final String MARIADB_HOST = "jdbc:mysql://127.0.0.1:3306/";

  private final List<String> created = new ArrayList<>();

  /** Creates an empty MariaDB database and returns its URL; fails (never skips) if MariaDB is down. */
  public String newMariaDb() {
    String name = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
    created.add(name);
    return MARIADB_HOST + name;
  }

  public static JdbcTokenStoreConfig mariaDb(String url) {
    return JdbcTokenStoreConfig.of(url, "root", "");
  }

  public static JdbcTokenStoreConfig h2(Path dir) {
    return JdbcTokenStoreConfig.embedded(dir.resolve("tokens"));
  }

  public static void execute(String sql) {
    try (Connection c = DriverManager.getConnection(MARIADB_HOST, "root", "");
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("MariaDB at 127.0.0.1:3306 (root, empty password) is required by this test"
          + " and failed: " + e.getMessage() + ". Start it (scripts/ensure-services.sh) and run again.", e);
    }
  }

  @Override
  public void close() {
    for (String name : created) {
      execute("DROP DATABASE IF EXISTS " + name);
    }
    created.clear();
  }
}
