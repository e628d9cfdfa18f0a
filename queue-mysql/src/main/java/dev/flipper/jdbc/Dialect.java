package dev.flipper.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * What differs between MySQL/MariaDB and H2 in MySQL mode, for the job tables and the token tables
 * alike. Everything else uses the same SQL on both. Implementations are stateless and thread-safe.
 */
public interface Dialect {
  Dialect MYSQL = new MysqlDialect();
  Dialect H2 = new H2Dialect();

  /** The dialect for a JDBC URL, or IllegalArgumentException naming the supported URL forms. */
  static Dialect forUrl(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:")) {
      return MYSQL;
    }
    if (lower.startsWith("jdbc:h2:")) {
      return H2;
    }
    throw new IllegalArgumentException(
        "JDBC URL '"
            + JdbcUrl.masked(url)
            + "' is not supported; use jdbc:mysql://host:port/database (MySQL 8, MariaDB 10.6+),"
            + " jdbc:mariadb://... or jdbc:h2:file:/path (embedded)");
  }

  String name();

  // ---- connections

  /** The URL with this dialect's connection settings added where the user did not set them. */
  String configureUrl(String url, Duration connectTimeout);

  /**
   * How long the pool waits for a connection to {@code url}, given the configured connect time-out.
   */
  default Duration poolConnectionTimeout(String url, Duration connectTimeout) {
    return connectTimeout;
  }

  // ---- errors: one classification, fed by each database's vendor codes

  /**
   * The vendor error codes the classification needs.
   *
   * @param connectionLost the database could not be reached, beyond the standard connection
   *     SQLSTATEs
   * @param lockConflict deadlocks and lock-wait time-outs: the transaction may run again
   * @param duplicateKey a unique-key violation
   * @param duplicateColumn ADD COLUMN of a column that exists
   */
  record ErrorCodes(
      Set<Integer> connectionLost,
      Set<Integer> lockConflict,
      int duplicateKey,
      int duplicateColumn) {}

  ErrorCodes errorCodes();

  /** The failure means the database could not be reached (as opposed to a bad statement). */
  default boolean isConnectionFailure(Throwable e) {
    return hasErrorCode(e, errorCodes().connectionLost()) || hasConnectionSqlState(e);
  }

  /**
   * Opening a connection failed in a way that no retry cures: a URL setting the driver refuses, bad
   * credentials, a database that does not exist (vendor codes, anywhere in the cause chain). The
   * start-up of a store fails on it instead of waiting for a database that will never open.
   */
  default boolean isPermanentOpenFailure(Throwable e) {
    return hasErrorCode(e, permanentOpenFailureCodes());
  }

  /** The vendor codes of {@link #isPermanentOpenFailure}. */
  Set<Integer> permanentOpenFailureCodes();

  /**
   * A deadlock or lock-wait time-out anywhere in the cause chain (SQLSTATE 40001, or a vendor
   * code): the whole transaction may run again.
   */
  default boolean isRetryable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && "40001".equals(sql.getSQLState())) {
        return true;
      }
    }
    return hasErrorCode(e, errorCodes().lockConflict());
  }

  /**
   * A unique-key violation anywhere in the cause chain: a concurrent insert of the same key
   * committed first.
   */
  default boolean isDuplicateKey(Throwable e) {
    return hasErrorCode(e, Set.of(errorCodes().duplicateKey()));
  }

  /** ADD COLUMN of a column that exists (a migration re-run after a crash half-way). */
  default boolean isDuplicateColumn(SQLException e) {
    return e.getErrorCode() == errorCodes().duplicateColumn();
  }

  // ---- tables

  /** Appended to CREATE TABLE: engine and character set. */
  String tableOptions();

  /**
   * A VARCHAR of visible ASCII compared byte by byte, the order of Java's String.compareTo on
   * ASCII; at most 3072 characters so that it can be a key on InnoDB.
   */
  String asciiKeyColumn(int length);

  /** A stored column computed from others: the text after the column's type. */
  String generated(String expression);

  // ---- statements of the job tables

  /**
   * Appended to a SELECT of one queue row so that deleteQueue waits until concurrent enqueues
   * commit.
   */
  String queueRowLock();

  /**
   * True if {@code INSERT ... SELECT ... FROM flipper_queues WHERE name = ?} followed by {@link
   * #queueRowLock()} holds the queue row like the locking SELECT does, so a single job is inserted
   * with one statement.
   */
  boolean insertSelectLocksQueueRow();

  /**
   * True if {@code SELECT ... ORDER BY ... LIMIT n FOR UPDATE SKIP LOCKED} locks only the n rows it
   * returns. H2 locks every row the query reads before applying the LIMIT, so there rows are locked
   * by id instead.
   */
  boolean appliesLimitBeforeLocking();

  /**
   * ORDER BY for rows of one queue, priority and state by run-after, ascending ({@code descending}
   * false) or, with local_id as tie-break, descending: the order of the (queue_name, priority,
   * state, run_after) index, spelt so that this database reads the index in order instead of
   * sorting every match.
   */
  String queueIndexOrder(boolean descending);

  /**
   * The jobs table for an UPDATE that names its rows by local_id (claims, acks, time-outs). The
   * optimizer must use the primary key: through the (queue_name, priority, state, ...) index,
   * concurrent acks lock each other's index entries on the way and deadlock; and on a small table
   * MariaDB prefers to read, and lock, every row.
   */
  String jobsByPrimaryKey();

  /**
   * The jobs table for a scan page in (run_after, local_id) order. MariaDB answers {@code run_after
   * = ? AND local_id < ?} by a ref on the four index columns and reads every entry at that
   * run_after from the top, unless forced to the index, where it ranges on the implicit local_id
   * too; H2 needs its (queue_name, priority, state, run_after, local_id) index to read ties in
   * order instead of sorting them.
   */
  String jobsByQueueIndex();

  /**
   * The jobs table for a claim's locking SELECT of due jobs. MariaDB answers {@code run_after >=
   * floor} (see ClaimFloors) by a ref on (queue_name, priority, state) and reads, from the top, the
   * delete-marked entries that earlier claims left for purge, about 20 times the work of a range
   * from the floor (1.5 to 3 ms instead of 0.14 ms with 20,000 such entries), unless forced to the
   * index, where it ranges on run_after.
   */
  String jobsToClaim();

  /**
   * The jobs table for a SELECT that locks rows named by local_id and re-checks their condition
   * (H2's claims, see {@link #appliesLimitBeforeLocking}). H2 answers {@code local_id IN (...) AND
   * queue_name = ? AND ...} through the queue index, reading every PENDING job of the queue (in the
   * peer suite a drain fell from about 10,000 to 600 jobs/s at 3 ms of CPU per job), unless told to
   * use an index on local_id (H2 schema migration 5).
   */
  String jobsToLockById();

  /**
   * The active tokens table for a read of names only (group counts): through its narrow (name,
   * leased_until, priority) index, which holds every name. MariaDB otherwise reads the name range
   * from the primary key, whose leaves are whole rows with their data, about three times slower.
   */
  String tokenNames();

  /**
   * True if a statement costs no network round trip (H2, in the same process): token group counts
   * by a suffix of several characters are then computed in SQL (every name read would cost a row
   * object); MariaDB's grouping in SQL sorts a temporary table, so there names are read instead.
   */
  boolean inProcess();

  /**
   * The run history's runs table for a search of its text, which no index serves: read in primary
   * key order, so each row is read once, in sequence. MariaDB otherwise walks the index of the
   * page's order and fetches every row from it, about three times as slow when few runs match.
   */
  String runsInKeyOrder();

  /**
   * The run history's runs table for a count of the runs a query matches without text: through a
   * secondary index, which holds every column such a filter names. MariaDB otherwise counts in its
   * primary key, whose leaves are whole rows, two to four times as slow.
   */
  String runsCounted();

  // ---- writes of the token tables

  /**
   * Whether writing transactions must run one at a time per database (the token store's {@code
   * WriterTurns}). Costs concurrency; needed where the database's row locks do not keep a
   * version-conditional write atomic.
   */
  boolean writersTakeTurns();

  // ---- shared by the implementations

  /**
   * True if any throwable in the chain has a connection-class SQLSTATE ("08..."), is a JDBC
   * connection exception, or is a refused or unresolvable TCP connect.
   */
  static boolean hasConnectionSqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.sql.SQLTransientConnectionException
          || t instanceof java.sql.SQLNonTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("08")) {
        return true;
      }
      if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  /** True if any SQLException in the cause chain has one of the vendor error codes. */
  static boolean hasErrorCode(Throwable e, Set<Integer> codes) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && codes.contains(sql.getErrorCode())) {
        return true;
      }
    }
    return false;
  }
}
