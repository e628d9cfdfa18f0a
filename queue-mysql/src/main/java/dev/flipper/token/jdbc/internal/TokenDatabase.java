package dev.flipper.token.jdbc.internal;

import dev.flipper.queue.mysql.internal.JdbcUrl;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.token.TokenErrorCode;
import dev.flipper.token.TokenException;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The token database's connection pool and how every operation runs on it: one READ COMMITTED transaction,
 * run again on deadlock, lock-wait time-out or a lost insert race, with SQL errors turned into
 * {@link TokenException}s (UNKNOWN) that name the operation and the database. Thread-safe.
 */
public final class TokenDatabase implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TokenDatabase.class);
  private static final int MAX_ATTEMPTS = 6;

  /** Work inside one transaction; a {@link TokenException} it throws rolls back and reaches the caller. */
  @FunctionalInterface
  public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  private final String maskedUrl;
  private final TokenDialect dialect;
  private final HikariDataSource pool;
  /** Taken for each writing transaction where the dialect needs it, else null. */
  private final WriterTurns writerTurns;

  public TokenDatabase(JdbcTokenStoreConfig config, String poolName) {
    this.maskedUrl = JdbcUrl.masked(config.url());
    this.dialect = TokenDialect.forUrl(config.url());
    this.writerTurns = dialect.writersTakeTurns() ? WriterTurns.of(config.url()) : null;
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName(poolName);
    hikari.setJdbcUrl(dialect.configureUrl(config.url(), config.connectTimeout()));
    hikari.setUsername(config.user());
    hikari.setPassword(config.password());
    hikari.setMaximumPoolSize(config.poolSize());
    hikari.setMinimumIdle(Math.min(2, config.poolSize()));
    hikari.setConnectionTimeout(config.connectTimeout().toMillis());
    hikari.setValidationTimeout(Math.max(250, Math.min(3000, config.connectTimeout().toMillis() / 2)));
    hikari.setInitializationFailTimeout(-1); // a database that is down at start is retried per call
    // READ COMMITTED: no gap locks, so inserts of new names never block each other, and each statement sees
    // what other masters committed.
    hikari.setAutoCommit(false);
    hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    try {
      this.pool = new HikariDataSource(hikari);
    } catch (RuntimeException e) {
      if (writerTurns != null) {
        writerTurns.close(); // else the lock file stays held by this process
      }
      throw e;
    }
  }

  public TokenDialect dialect() {
    return dialect;
  }

  public DataSource dataSource() {
    return pool;
  }

  public String maskedUrl() {
    return maskedUrl;
  }

  /**
   * Runs the work in one transaction and commits. Retries the whole transaction on deadlock, lock-wait time-out
   * and duplicate key (a concurrent insert of a name won; the next attempt sees it and reports the conflict).
   */
  public <T> T inTransaction(String operation, SqlWork<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = connection(operation)) {
        T result;
        try {
          result = work.run(c);
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(c);
          throw e;
        }
        commit(c, operation);
        return result;
      } catch (SQLException e) {
        boolean retry = dialect.isRetryable(e) || dialect.isDuplicateKey(e);
        if (retry && attempt < MAX_ATTEMPTS) {
          log.debug("{} on {}: attempt {} failed ({}); running it again", operation, maskedUrl, attempt,
              e.getMessage());
          LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000, 5_000_000L * attempt));
          continue;
        }
        throw failure(operation, e);
      }
    }
  }

  /**
   * Like {@link #inTransaction}, for work that writes tokens: where the dialect needs it, only one such transaction
   * per database runs at a time (see {@link TokenDialect#writersTakeTurns()}).
   */
  public <T> T inWriteTransaction(String operation, SqlWork<T> work) {
    return writerTurns == null ? inTransaction(operation, work) : writerTurns.run(() -> inTransaction(operation, work));
  }

  private Connection connection(String operation) throws SQLException {
    try {
      return pool.getConnection();
    } catch (SQLException e) {
      throw new TokenException(TokenErrorCode.UNKNOWN, "token store " + maskedUrl + " cannot be reached for "
          + operation + " (nothing was changed): " + e.getMessage(), e);
    }
  }

  private void commit(Connection c, String operation) {
    try {
      c.commit();
    } catch (SQLException e) {
      rollbackQuietly(c);
      throw new TokenException(TokenErrorCode.UNKNOWN, "token store " + maskedUrl + ": the commit of " + operation
          + " failed, so its outcome is unknown; read the tokens again before retrying: " + e.getMessage(), e);
    }
  }

  private TokenException failure(String operation, SQLException e) {
    String what = TokenDialect.isConnectionFailure(e) ? "lost its connection during " : "failed during ";
    return new TokenException(TokenErrorCode.UNKNOWN, "token store " + maskedUrl + " " + what + operation
        + " (nothing was changed): " + e.getMessage(), e);
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      log.debug("rollback failed after an error: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    pool.close();
    if (writerTurns != null) {
      writerTurns.close();
    }
  }
}
