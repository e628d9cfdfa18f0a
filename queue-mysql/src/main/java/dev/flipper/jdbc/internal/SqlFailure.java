package dev.flipper.jdbc.internal;

import dev.flipper.jdbc.Dialect;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * Why an operation on a {@link Database} failed, sorted once for both stores so that each only
 * words it in its own exception type. Immutable.
 *
 * @param kind unreachable, busy or failed
 * @param operation what was being done, e.g. {@code enqueue on queue 'mail'}
 * @param reason the failure in words, with the root cause or the pool's state
 * @param outcomeUnknown the commit itself failed, so the change may or may not have been applied
 * @param cause the JDBC exception
 */
public record SqlFailure(
    Kind kind, String operation, String reason, boolean outcomeUnknown, SQLException cause) {

  /** The kinds of failure; only {@link #UNREACHABLE} says anything about the database's health. */
  public enum Kind {
    /** The database could not be reached: a refused, lost or unopenable connection. */
    UNREACHABLE,
    /**
     * Every connection of the pool stayed in use for the whole pool wait. Back-pressure: the
     * database answers, this process just asks more of it at once than its pool allows. Nothing was
     * done.
     */
    BUSY,
    /** Anything else: a bad statement, a constraint, a lock conflict that outlasted the retries. */
    FAILED
  }

  /** The kind of a JDBC failure on a database of this dialect. */
  public static Kind classify(Dialect dialect, SQLException e) {
    if (isPoolSaturated(e)) {
      return Kind.BUSY;
    }
    return dialect.isConnectionFailure(e) ? Kind.UNREACHABLE : Kind.FAILED;
  }

  /**
   * True for HikariCP's time-out ("Connection is not available, request timed out after ...") when
   * no attempt to open a connection failed. HikariCP throws a SQLTransientConnectionException on
   * time-out and attaches the failure of its last attempt to open a connection as cause and next
   * exception; a successful attempt clears it. So with a cause the database could not be reached
   * (refused, unknown host, access denied, H2 file locked), and without one every connection was
   * simply in use: the pool is full, the database is fine.
   */
  static boolean isPoolSaturated(SQLException e) {
    return e instanceof SQLTransientConnectionException
        && e.getCause() == null
        && e.getNextException() == null;
  }

  /** The message and the root cause's, for logs and errors. */
  static String rootMessage(Throwable e) {
    StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != e) {
      sb.append(" (cause: ")
          .append(root.getClass().getSimpleName())
          .append(": ")
          .append(root.getMessage())
          .append(')');
    }
    return sb.toString();
  }
}
