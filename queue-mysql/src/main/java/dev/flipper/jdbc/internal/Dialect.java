package dev.flipper.queue.mysql.internal;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

/**
 * What differs between MySQL/MariaDB and H2 in MySQL mode. Everything else uses the same SQL on both.
 * Implementations are stateless and thread-safe.
 */
public interface Dialect {

  /** The dialect for a JDBC URL, or IllegalArgumentException naming the supported URL forms. */
  static Dialect forUrl(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:")) {
      return new MysqlDialect();
    }
    if (lower.startsWith("jdbc:h2:")) {
      return new H2Dialect();
    }
    throw new IllegalArgumentException("JDBC URL '" + JdbcUrl.masked(url)
        + "' is not supported; use jdbc:mysql://host:port/database (MySQL 8, MariaDB 10.6+),"
        + " jdbc:mariadb://... or jdbc:h2:file:/path (embedded)");
  }

  String name();

  /** The URL with this dialect's connection settings added where the user did not set them. */
  String configureUrl(String url, Duration connectTimeout);

  /** How long the pool waits for a connection, given the configured connect time-out. */
  default Duration poolConnectionTimeout(Duration connectTimeout) {
    return connectTimeout;
  }

  /** Appended to CREATE TABLE: engine and character set. */
  String tableOptions();

  /** Appended to a SELECT of one queue row so that deleteQueue waits until concurrent enqueues commit. */
  String queueRowLock();

  /**
   * True if {@code SELECT ... ORDER BY ... LIMIT n FOR UPDATE SKIP LOCKED} locks only the n rows it returns.
   * H2 locks every row the query reads before applying the LIMIT, so there rows are locked by id instead.
   */
  boolean appliesLimitBeforeLocking();

  /**
   * ORDER BY for rows of one queue, priority and state by run-after, ascending ({@code descending} false)
   * or, with local_id as tie-break, descending: the order of the (queue_name, priority, state, run_after)
   * index, spelt so that this database reads the index in order instead of sorting every match.
   */
  String queueIndexOrder(boolean descending);

  /**
   * The jobs table for an UPDATE that names its rows by local_id (claims, acks, time-outs). The optimizer
   * must use the primary key: through the (queue_name, priority, state, ...) index, concurrent acks lock each
   * other's index entries on the way and deadlock; and on a small table MariaDB prefers to read, and lock,
   * every row.
   */
  String jobsByPrimaryKey();

  /** The failure means the database could not be reached (as opposed to a bad statement). */
  boolean isConnectionFailure(SQLException e);

  /** The failure is a deadlock or lock-wait time-out: the whole transaction may be retried. */
  boolean isRetryable(SQLException e);

  /** Walks the cause chain; true if any SQLException in it has a connection-class SQLSTATE ("08..."). */
  static boolean hasConnectionSqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.sql.SQLTransientConnectionException
          || t instanceof java.sql.SQLNonTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
        return true;
      }
      if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
