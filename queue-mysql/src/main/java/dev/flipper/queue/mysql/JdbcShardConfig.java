package dev.flipper.queue.mysql;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One shard of a {@link JdbcQueueStore}: a database (MySQL 8, MariaDB 10.6+ or H2 in MySQL mode)
 * that the JDBC URL names. Immutable.
 *
 * @param name the shard's name in job descriptors: non-empty, no ':'; must never change while jobs
 *     exist
 * @param url {@code jdbc:mysql://host:3306/db} (MySQL 8, MariaDB 10.6+), {@code jdbc:mariadb://...}
 *     (only with MariaDB Connector/J on the classpath, which queue-mysql does not bring) or {@code
 *     jdbc:h2:file:/path}
 * @param user database user; null means ""
 * @param password database password; null means ""
 * @param dequeueOnly the shard receives no new jobs but serves every other operation (for draining
 *     it)
 */
public record JdbcShardConfig(
    String name, String url, String user, String password, boolean dequeueOnly) {

  public JdbcShardConfig {
    if (name == null || name.isEmpty() || name.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "shard name '" + name + "' must be non-empty and contain no ':'");
    }
    Objects.requireNonNull(url, () -> "url of shard '" + name + "'");
    user = user == null ? "" : user;
    password = password == null ? "" : password;
  }

  /**
   * A writable shard with no user and no password: the defaults of a shard of the config's
   * storage.jdbc.shards.
   */
  public static JdbcShardConfig of(String name, String url) {
    return new JdbcShardConfig(name, url, "", "", false);
  }

  /**
   * The embedded default: an H2 file database in MySQL mode with {@code AUTO_SERVER=TRUE}, so
   * several processes on one machine can share it.
   */
  public static JdbcShardConfig embedded(String name, Path databaseFile) {
    String url = "jdbc:h2:file:" + databaseFile.toAbsolutePath() + ";MODE=MySQL;AUTO_SERVER=TRUE";
    return new JdbcShardConfig(name, url, "sa", "", false);
  }

  public JdbcShardConfig withDequeueOnly(boolean newDequeueOnly) {
    return new JdbcShardConfig(name, url, user, password, newDequeueOnly);
  }

  /** True if both configs reach the same database as the same user, so a pool can be kept. */
  public boolean sameDatabase(JdbcShardConfig other) {
    return url.equals(other.url) && user.equals(other.user) && password.equals(other.password);
  }

  /** Masks the password, which must never reach a log. */
  @Override
  public String toString() {
    return "JdbcShardConfig[name="
        + name
        + ", url="
        + dev.flipper.jdbc.JdbcUrl.masked(url)
        + ", user="
        + user
        + ", password="
        + (password.isEmpty() ? "" : "****")
        + ", dequeueOnly="
        + dequeueOnly
        + "]";
  }
}
