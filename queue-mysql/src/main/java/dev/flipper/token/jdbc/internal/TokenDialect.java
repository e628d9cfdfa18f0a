package dev.flipper.token.jdbc.internal;

import dev.flipper.queue.mysql.internal.Dialect;
import dev.flipper.queue.mysql.internal.JdbcUrl;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What differs between MySQL/MariaDB and H2 (MySQL mode) for the token tables; everything else is the same SQL.
 * Stateless and thread-safe.
 */
public enum TokenDialect {
  MYSQL {
    @Override
    public String configureUrl(String url, Duration connectTimeout) {
      String configured = Dialect.forUrl(url).configureUrl(url, connectTimeout);
      if (!configured.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")) {
        return configured; // another driver: its properties differ, leave the URL as written
      }
      // A claim never waits for a locked token (SKIP LOCKED); only the version row is waited for, briefly.
      return JdbcUrl.withDefaults(configured, '?', '&', Map.of("sessionVariables", "innodb_lock_wait_timeout=10"));
    }

    @Override
    public String nameColumn() {
      // ascii + binary collation: 1024 bytes fit InnoDB's 3072-byte key limit (utf8mb4 would need 4096), and
      // comparisons are byte order, the order of Java's String.compareTo on ASCII.
      return "VARCHAR(" + NAME_LENGTH + ") CHARACTER SET ascii COLLATE ascii_bin";
    }

    @Override
    public String tableOptions() {
      return " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
    }

    @Override
    public String generated(String expression) {
      return "AS (" + expression + ") STORED"; // MySQL 8 and MariaDB (STORED = PERSISTENT)
    }

    @Override
    boolean isRetryable(SQLException sql) {
      return sql.getErrorCode() == 1213 || sql.getErrorCode() == 1205 || "40001".equals(sql.getSQLState());
    }

    @Override
    boolean isDuplicateKey(SQLException sql) {
      return sql.getErrorCode() == 1062;
    }

    @Override
    public boolean writersTakeTurns() {
      return false; // InnoDB's row locks and version-conditional writes are enough
    }
  },

  H2 {
    @Override
    public String configureUrl(String url, Duration connectTimeout) {
      return Dialect.forUrl(url).configureUrl(url, connectTimeout); // MySQL mode, lock time-out, WRITE_DELAY=0
    }

    @Override
    public String nameColumn() {
      return "VARCHAR(" + NAME_LENGTH + ")"; // compared with String.compareTo
    }

    @Override
    public String tableOptions() {
      return "";
    }

    @Override
    public String generated(String expression) {
      return "GENERATED ALWAYS AS (" + expression + ")";
    }

    @Override
    boolean isRetryable(SQLException sql) {
      // org.h2.api.ErrorCode: DEADLOCK_1, LOCK_TIMEOUT_1, CONCURRENT_UPDATE_1 (copied to keep H2 off the
      // compile path).
      return Set.of(40001, 50200, 90131).contains(sql.getErrorCode());
    }

    @Override
    boolean isDuplicateKey(SQLException sql) {
      return sql.getErrorCode() == 23505;
    }

    @Override
    public boolean writersTakeTurns() {
      // H2 (2.3.232 up to 2.5.252) can let two transactions that race on one row both pass a version-conditional
      // UPDATE, so an update is lost, and can hand out one version twice. Its row locks did not prevent it;
      // writers taking turns outside the database did. See docs/tokens.md.
      return true;
    }
  };

  static final int NAME_LENGTH = dev.flipper.token.TokenNames.MAX_NAME_LENGTH;

  /** The dialect of a JDBC URL, or IllegalArgumentException naming the supported forms. */
  public static TokenDialect forUrl(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:")) {
      return MYSQL;
    }
    if (lower.startsWith("jdbc:h2:")) {
      return H2;
    }
    throw new IllegalArgumentException("token store URL '" + JdbcUrl.masked(url) + "' is not supported; use"
        + " jdbc:mysql://host:port/database (MySQL 8, MariaDB 10.6+), jdbc:mariadb://... or jdbc:h2:file:/path");
  }

  /** The URL with this dialect's connection settings added where the user did not set them. */
  public abstract String configureUrl(String url, Duration connectTimeout);

  /** The type of the name columns. */
  public abstract String nameColumn();

  /** Appended to CREATE TABLE. */
  public abstract String tableOptions();

  /** A stored column computed from others: the text after the column's type. */
  public abstract String generated(String expression);

  /**
   * Whether writing transactions must run one at a time per database ({@link WriterTurns}). Costs concurrency;
   * needed where the database's row locks do not keep a version-conditional write atomic.
   */
  public abstract boolean writersTakeTurns();

  abstract boolean isRetryable(SQLException sql);

  abstract boolean isDuplicateKey(SQLException sql);

  /** A deadlock or lock-wait time-out anywhere in the cause chain: the whole transaction may run again. */
  public boolean isRetryable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && isRetryable(sql)) {
        return true;
      }
    }
    return false;
  }

  /** A unique-key violation: a concurrent insert of the same name committed first. */
  public boolean isDuplicateKey(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && isDuplicateKey(sql)) {
        return true;
      }
    }
    return false;
  }

  /** The database could not be reached (as opposed to a bad statement). */
  public static boolean isConnectionFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.sql.SQLTransientConnectionException
          || t instanceof java.sql.SQLNonTransientConnectionException
          || t instanceof java.net.ConnectException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
        return true;
      }
    }
    return false;
  }
}
