package dev.flipper.token.jdbc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a {@link JdbcTokenStore} keeps its tokens: one database (MySQL 8, MariaDB 10.6+ or H2 in
 * MySQL mode). Several masters share their tokens by naming the same database. Immutable.
 *
 * @param url {@code jdbc:mysql://host:3306/db} (MySQL 8, MariaDB 10.6+), {@code jdbc:mariadb://...}
 *     (only with MariaDB Connector/J on the classpath, which queue-mysql does not bring) or {@code
 *     jdbc:h2:file:/path}
 * @param user database user; null means ""
 * @param password database password; null means ""
 * @param poolSize connections per store (each master process); at least 1
 * @param connectTimeout how long to wait for a connection (a TCP connect, or a free pooled one; H2
 *     file databases at least 30 s) before a call fails with UNKNOWN, worded "busy" when every
 *     pooled connection stayed in use
 */
public record JdbcTokenStoreConfig(
    String url, String user, String password, int poolSize, Duration connectTimeout) {
  public static final int DEFAULT_POOL_SIZE = 10;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  public JdbcTokenStoreConfig {
    Objects.requireNonNull(url, "url");
    user = user == null ? "" : user;
    password = password == null ? "" : password;
    if (poolSize < 1) {
      throw new IllegalArgumentException(
          "token store poolSize is " + poolSize + "; it must be at least 1");
    }
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    if (connectTimeout.toMillis() < 250) {
      throw new IllegalArgumentException(
          "token store connectTimeout is " + connectTimeout + "; it must be at least 250 ms");
    }
  }

  /** A database with the default pool size and connect time-out. */
  public static JdbcTokenStoreConfig of(String url, String user, String password) {
    return new JdbcTokenStoreConfig(
        url, user, password, DEFAULT_POOL_SIZE, DEFAULT_CONNECT_TIMEOUT);
  }

  /**
   * The embedded default: an H2 file database in MySQL mode with {@code AUTO_SERVER=TRUE}, so
   * several processes on one machine can share it.
   */
  public static JdbcTokenStoreConfig embedded(Path databaseFile) {
    return of(
        "jdbc:h2:file:" + databaseFile.toAbsolutePath() + ";MODE=MySQL;AUTO_SERVER=TRUE", "sa", "");
  }

  public JdbcTokenStoreConfig withPoolSize(int newPoolSize) {
    return new JdbcTokenStoreConfig(url, user, password, newPoolSize, connectTimeout);
  }

  /** Masks the password, which must never reach a log. */
  @Override
  public String toString() {
    return "JdbcTokenStoreConfig[url="
        + url
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "" : "****")
        + ", poolSize="
        + poolSize
        + ", connectTimeout="
        + connectTimeout
        + "]";
  }
}
