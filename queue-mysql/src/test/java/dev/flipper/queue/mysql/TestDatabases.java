package dev.flipper.queue.mysql;

import dev.flipper.queue.testing.TestServices;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Fresh, isolated databases for tests: MariaDB databases {@code flipper_t_<random>} on
 * 127.0.0.1:3306 (root, empty password; the project's test script starts the server) and H2 files
 * in a temporary folder. Drops only what it created. Not thread-safe; one instance per test. Shared
 * with other modules through this module's test jar. Tests that call {@link #newMariaDb()} carry
 * {@code @Tag("mariadb")}, so that {@code ./flipper test --unit} leaves them out; without MariaDB
 * they fail at once (see {@link TestServices}).
 */
public final class TestDatabases implements AutoCloseable {
  public static final String MARIADB_HOST = "jdbc:mysql://127.0.0.1:3306/";

  private final List<String> created = new ArrayList<>();

  /**
   * Creates an empty MariaDB database and returns its URL; fails (never skips) if MariaDB is down.
   */
  public String newMariaDb() {
    String name = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
    created.add(name);
    return MARIADB_HOST + name;
  }

  public static String h2Url(Path dir, String name) {
    return "jdbc:h2:file:" + dir.resolve(name).toAbsolutePath() + ";MODE=MySQL;AUTO_SERVER=TRUE";
  }

  public static JdbcShardConfig mariaDbShard(String name, String url) {
    return new JdbcShardConfig(name, url, "root", "", false);
  }

  public static JdbcShardConfig h2Shard(String name, Path dir) {
    return JdbcShardConfig.embedded(name, dir.resolve("shard_" + name));
  }

  /** A token store on a MariaDB database made by {@link #newMariaDb()}. */
  public static JdbcTokenStoreConfig mariaDbTokens(String url) {
    return JdbcTokenStoreConfig.of(url, "root", "");
  }

  /** A token store on an H2 file in {@code dir}. */
  public static JdbcTokenStoreConfig h2Tokens(Path dir) {
    return JdbcTokenStoreConfig.embedded(dir.resolve("tokens"));
  }

  /** A URL to a closed port on this machine: connections are refused at once. */
  public static String unreachableMysqlUrl() {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return "jdbc:mysql://127.0.0.1:"
        + port
        + "/flipper_nowhere"; // closed again: nothing listens there
  }

  /** Runs one statement as root; fails at once, saying what to do, when MariaDB does not answer. */
  public static void execute(String sql) {
    TestServices.requireMariaDb();
    try (Connection c = DriverManager.getConnection(MARIADB_HOST, "root", "");
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "MariaDB at 127.0.0.1:3306 (root, empty password) is required by this test"
              + " and failed: "
              + e.getMessage()
              + ". Run scripts/ensure-services.sh, or run the tests that need no"
              + " service with ./flipper test --unit.",
          e);
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
