package dev.flipper.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.JdbcUrl;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One database of a store (a queue shard, or the token database): its HikariCP pool and how every
 * operation runs on it. Each operation is one READ COMMITTED transaction, run again on deadlock,
 * lock-wait time-out or a lost race to insert the same key; any other failure is sorted into a
 * {@link SqlFailure} and handed to the store's {@link FailureHandler}, which turns it into the
 * store's own exception. Thread-safe.
 */
public final class Database implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Database.class);

  /**
   * The retry policy of both stores. A deadlock, a lock-wait time-out or a duplicate key comes from
   * a few transactions racing on the same rows (claims of one queue, the token version row, two
   * inserts of one name); after the rollback a re-run almost always goes through within two or
   * three attempts. Six attempts, with a jittered pause of 1..10·n ms before attempt n + 1 (at most
   * 150 ms in all), ride out such a burst; a call that still loses the sixth time reports the
   * conflict instead of hiding a hot spot. Row-lock waits are bounded by the dialect (10 s on both
   * databases), never by this loop.
   */
  static final int MAX_ATTEMPTS = 6;

  private static final long BACKOFF_STEP_MILLIS = 10;

  /**
   * Work inside one transaction; a RuntimeException it throws rolls back and reaches the caller
   * unchanged.
   */
  @FunctionalInterface
  public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Turns a failure into the store's exception (and may note it, e.g. open a health breaker). */
  @FunctionalInterface
  public interface FailureHandler {
    RuntimeException toException(SqlFailure failure);
  }

  /**
   * How to reach the database and size the pool.
   *
   * @param poolName names the pool's threads and log lines
   * @param poolSize most connections; schema migrations need two
   * @param connectTimeout how long a TCP connect, or the wait for a pooled connection, may take
   *     (see {@link Dialect#poolConnectionTimeout})
   */
  public record Settings(
      String poolName,
      String url,
      String user,
      String password,
      int poolSize,
      Duration connectTimeout) {
    @Override
    public String toString() {
      return "Settings[poolName="
          + poolName
          + ", url="
          + JdbcUrl.masked(url)
          + ", user="
          + user
          + ", poolSize="
          + poolSize
          + ", connectTimeout="
          + connectTimeout
          + "]";
    }
  }

  private final String poolName;
  private final String maskedUrl;
  private final Dialect dialect;
  private final Duration poolWait;
  private final HikariDataSource pool;
  private final FailureHandler failures;
  private final java.util.Optional<SQLException> permanentOpenFailure;

  public Database(Settings settings, FailureHandler failures) {
    this.poolName = settings.poolName();
    this.maskedUrl = JdbcUrl.masked(settings.url());
    this.dialect = Dialect.forUrl(settings.url());
    this.poolWait = dialect.poolConnectionTimeout(settings.url(), settings.connectTimeout());
    this.failures = failures;
    HikariConfig config = hikariConfig(settings, dialect, poolWait);
    // One connection outside the pool first: the pool retries every failure until its wait ends, so
    // a
    // refused URL setting looked like a database that is down and the daemon stayed "not ready" for
    // ever.
    Connection probe = null;
    SQLException openFailure = null;
    try {
      probe =
          java.sql.DriverManager.getConnection(
              config.getJdbcUrl(), settings.user(), settings.password());
    } catch (SQLException e) {
      openFailure = e;
    }
    this.permanentOpenFailure =
        openFailure != null && dialect.isPermanentOpenFailure(openFailure)
            ? java.util.Optional.of(openFailure)
            : java.util.Optional.empty();
    this.pool = new HikariDataSource(config);
    if (probe != null) {
      // The probe stays open until the pool holds a connection: an embedded H2 database closes with
      // its last
      // connection, and pooled connections that opened it again while it closed intermittently
      // lacked
      // MODE=MySQL (INSERT IGNORE refused in H2QueueContractTest).
      try (Connection first = pool.getConnection()) {
        first.rollback();
      } catch (SQLException e) {
        log.debug("{}: no pooled connection after the probe: {}", poolName, e.getMessage());
      } finally {
        closeQuietly(probe);
      }
    }
  }

  private static HikariConfig hikariConfig(Settings settings, Dialect dialect, Duration poolWait) {
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName(settings.poolName());
    hikari.setJdbcUrl(dialect.configureUrl(settings.url(), settings.connectTimeout()));
    hikari.setUsername(settings.user());
    hikari.setPassword(settings.password());
    hikari.setMaximumPoolSize(settings.poolSize());
    hikari.setMinimumIdle(Math.min(2, settings.poolSize()));
    hikari.setConnectionTimeout(poolWait.toMillis());
    hikari.setValidationTimeout(
        Math.max(250, Math.min(3000, settings.connectTimeout().toMillis() / 2)));
    // Never fail at start: a database that is down is reported per call and tried again on the next
    // one.
    hikari.setInitializationFailTimeout(-1);
    // Every operation is one explicit transaction. READ COMMITTED: no InnoDB gap locks, so claims
    // (SKIP LOCKED)
    // and inserts of new token names never block each other, and each statement sees what others
    // committed.
    hikari.setAutoCommit(false);
    hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    return hikari;
  }

  public Dialect dialect() {
    return dialect;
  }

  /**
   * The failure of the connection opened at construction, outside the pool, if no retry would cure
   * it (see {@link Dialect#isPermanentOpenFailure}); else empty: opened, or a failure (refused,
   * time-out, a locked H2 file) that may pass.
   */
  public java.util.Optional<SQLException> permanentOpenFailure() {
    return permanentOpenFailure;
  }

  public String maskedUrl() {
    return maskedUrl;
  }

  /** The pool, for work that manages its own transactions (schema migrations). */
  public DataSource dataSource() {
    return pool;
  }

  /**
   * How long a caller waits for a pooled connection before its call fails as busy (or unreachable).
   */
  public Duration poolWait() {
    return poolWait;
  }

  /**
   * Runs the work in one transaction and commits. Deadlocks, lock-wait time-outs and duplicate keys
   * roll back and run the whole work again (a duplicate key: a concurrent insert won, and the
   * re-run sees its row).
   */
  public <T> T inTransaction(String operation, SqlWork<T> work) {
    for (int attempt = 1; ; attempt++) {
      Connection c;
      try {
        c = pool.getConnection();
      } catch (SQLException e) {
        throw failure(operation, e, false);
      }
      try {
        T result;
        try {
          result = work.run(c);
        } catch (SQLException e) {
          rollbackQuietly(c, e);
          if (attempt < MAX_ATTEMPTS
              && (dialect.isRetryable(e) || dialect.isDuplicateKey(e))
              && backOff(attempt)) {
            log.debug(
                "{} on {}: attempt {} lost a race ({}); running it again",
                operation,
                poolName,
                attempt,
                e.getMessage());
            continue;
          }
          throw failure(operation, e, false);
        } catch (RuntimeException e) {
          rollbackQuietly(c, e);
          throw e;
        }
        try {
          c.commit();
        } catch (SQLException e) {
          rollbackQuietly(c, e);
          throw failure(operation, e, true);
        }
        return result;
      } finally {
        closeQuietly(c);
      }
    }
  }

  /** The store's exception for a failure of {@code operation} outside {@link #inTransaction}. */
  public RuntimeException failure(String operation, SQLException e) {
    return failure(operation, e, false);
  }

  private RuntimeException failure(String operation, SQLException e, boolean outcomeUnknown) {
    SqlFailure.Kind kind = SqlFailure.classify(dialect, e);
    String reason =
        switch (kind) {
          case BUSY -> busyReason();
          case UNREACHABLE -> SqlFailure.rootMessage(e);
          case FAILED ->
              e.getMessage()
                  + " (SQLSTATE "
                  + e.getSQLState()
                  + ", error "
                  + e.getErrorCode()
                  + ")";
        };
    if (kind == SqlFailure.Kind.UNREACHABLE) {
      log.warn("{} ({}) unreachable during {}: {}", poolName, maskedUrl, operation, reason);
    }
    return failures.toException(new SqlFailure(kind, operation, reason, outcomeUnknown, e));
  }

  /**
   * Why no connection came within the wait, though none failed to open: all in use, or (no
   * connection yet) the database is slow to open, as an H2 file can be on a loaded machine. Neither
   * is the database being down.
   */
  private String busyReason() {
    HikariPoolMXBean bean = pool.getHikariPoolMXBean();
    String wait = " for the pool wait of " + poolWait.toMillis() + " ms (" + poolState() + ")";
    if (bean != null && bean.getTotalConnections() == 0) {
      return "no connection was opened yet"
          + wait
          + ", and no attempt failed: the database is slow to open";
    }
    return "every connection stayed in use"
        + wait
        + "; the database is reachable but this process asks more of it"
        + " at once than its pool of "
        + pool.getMaximumPoolSize()
        + " allows";
  }

  /** The pool's counts as HikariCP logs them: {@code total=2, active=2, idle=0, waiting=14}. */
  public String poolState() {
    HikariPoolMXBean bean = pool.getHikariPoolMXBean();
    if (bean == null) {
      return "pool not started";
    }
    return "total="
        + bean.getTotalConnections()
        + ", active="
        + bean.getActiveConnections()
        + ", idle="
        + bean.getIdleConnections()
        + ", waiting="
        + bean.getThreadsAwaitingConnection();
  }

  /** Waits before attempt {@code attempt + 1}; false if interrupted (the flag stays set). */
  private static boolean backOff(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, BACKOFF_STEP_MILLIS * attempt + 1));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException rollbackFailure) {
      cause.addSuppressed(rollbackFailure);
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      log.debug("closing a pooled connection failed: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
