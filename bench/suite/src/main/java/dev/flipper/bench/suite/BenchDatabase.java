package dev.flipper.bench.suite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * A database of one peer's own on the shared MariaDB (--jdbc-url, --user, --password), with a HikariCP pool over
 * it: created with a random name on open, dropped on close, so that nothing else on the server is touched.
 */
final class BenchDatabase implements AutoCloseable {
  // The connector properties Flipper's MariaDB store sets (queue-mysql MysqlDialect), so that every system talks
  // to MariaDB through the same mysql-connector-j with the same speed settings; auto-commit stays on, as the
  // peers expect of a plain DataSource.
  private static final String CONNECTOR_PROPERTIES = "rewriteBatchedStatements=true&useServerPrepStmts=false"
      + "&cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048&useLocalSessionState=true"
      + "&useLocalTransactionState=true&cacheServerConfiguration=true&cacheResultSetMetadata=true"
      + "&elideSetAutoCommits=true&maintainTimeStats=false";

  private final String serverUrl;
  private final String user;
  private final String password;
  private final String name;
  private final HikariDataSource pool;

  /** Creates {@code prefix} + a random suffix, e.g. bench_dbs_1a2b3c4d. */
  BenchDatabase(Options options, String prefix) throws SQLException {
    serverUrl = options.get("jdbc-url", "jdbc:mysql://127.0.0.1:3306/");
    user = options.get("user", "root");
    password = options.get("password", "");
    name = prefix + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    onServer("CREATE DATABASE " + name);
    try {
      pool = new HikariDataSource(poolConfig(options));
    } catch (RuntimeException e) {
      onServer("DROP DATABASE " + name);
      throw e;
    }
  }

  DataSource dataSource() {
    return pool;
  }

  void execute(String sql) throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    pool.close();
    onServer("DROP DATABASE IF EXISTS " + name);
  }

  private HikariConfig poolConfig(Options options) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(databaseUrl());
    config.setUsername(user);
    config.setPassword(password);
    // a connection for every producer and worker thread, and a few for the system's own pollers and heartbeats
    config.setMaximumPoolSize(options.getInt("producers", 8) + options.getInt("inflight", 16) + 8);
    return config;
  }

  /** The server URL with this database as its path, the connector properties, then any the user gave. */
  private String databaseUrl() {
    int query = serverUrl.indexOf('?');
    String base = query < 0 ? serverUrl : serverUrl.substring(0, query);
    String given = query < 0 ? "" : "&" + serverUrl.substring(query + 1);
    return (base.endsWith("/") ? base : base + "/") + name + "?" + CONNECTOR_PROPERTIES + given;
  }

  private void onServer(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(serverUrl, user, password);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
