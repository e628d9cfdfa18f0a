package dev.flipper.queue.mysql.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.mysql.JdbcShardConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard's connection pool and the way every operation runs on it: one transaction, retried on deadlock
 * or lock-wait time-out, with SQL errors turned into {@link QueueException}s that name the shard and the
 * operation. Connection failures open the shard's {@link ShardHealth} breaker. Thread-safe.
 */
public final class ShardDatabase implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardDatabase.class);
  private static final int MAX_ATTEMPTS = 4;

  /** Work inside one transaction. */
  @FunctionalInterface
  public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  private final String shardName;
  private final String maskedUrl;
  private final Dialect dialect;
  private final HikariDataSource pool;
  private final ShardHealth health;

  public ShardDatabase(JdbcShardConfig config, Dialect dialect, PoolSettings settings) {
    this.shardName = config.name();
    this.maskedUrl = JdbcUrl.masked(config.url());
    this.dialect = dialect;
    this.health = new ShardHealth(settings.unhealthyCooldown());
    this.pool = new HikariDataSource(hikariConfig(config, dialect, settings));
  }

  /** Pool settings shared by all shards of a store. */
  public record PoolSettings(int poolSize, Duration connectTimeout, Duration unhealthyCooldown) {}

  private static HikariConfig hikariConfig(JdbcShardConfig config, Dialect dialect, PoolSettings settings) {
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName("flipper-shard-" + config.name());
    hikari.setJdbcUrl(dialect.configureUrl(config.url(), settings.connectTimeout()));
    hikari.setUsername(config.user());
    hikari.setPassword(config.password());
    hikari.setMaximumPoolSize(settings.poolSize());
    hikari.setMinimumIdle(Math.min(2, settings.poolSize()));
    hikari.setConnectionTimeout(dialect.poolConnectionTimeout(settings.connectTimeout()).toMillis());
    hikari.setValidationTimeout(Math.max(250, Math.min(3000, settings.connectTimeout().toMillis() / 2)));
    // Never fail at start: an unreachable shard is reported unhealthy and tried again later.
    hikari.setInitializationFailTimeout(-1);
    // Every operation is one explicit transaction; READ COMMITTED avoids InnoDB gap locks, so claims
    // (SELECT ... FOR UPDATE SKIP LOCKED) never block concurrent enqueues.
    hikari.setAutoCommit(false);
    hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    return hikari;
  }

  public String shardName() {
    return shardName;
  }

  public Dialect dialect() {
    return dialect;
  }

  public ShardHealth health() {
    return health;
  }

  public DataSource dataSource() {
    return pool;
  }

  /** Fails fast with SHARD_CONNECTION_FAILED while the breaker is open. */
  public void checkAvailable(String operation) {
    if (!health.healthy()) {
      throw new QueueException(ErrorCode.SHARD_CONNECTION_FAILED, "shard '" + shardName + "' (" + maskedUrl
          + ") is unreachable, " + operation + " not attempted; next try in " + health.millisUntilRetry()
          + " ms; last failure: " + health.lastFailure());
    }
  }

  /**
   * Runs the work in one transaction and commits. Deadlocks and lock-wait time-outs roll back and retry the
   * whole work; a {@link QueueException} thrown by the work rolls back and passes through.
   */
  public <T> T inTransaction(String operation, String queue, SqlWork<T> work) {
    checkAvailable(operation);
    for (int attempt = 1; ; attempt++) {
      try {
        T result = runOnce(work);
        health.markReachable();
        return result;
      } catch (SQLException e) {
        if (attempt < MAX_ATTEMPTS && dialect.isRetryable(e)) {
          log.debug("{} on shard '{}' hit a lock conflict (attempt {}): {}", operation, shardName, attempt, e.getMessage());
          backOff(attempt);
          continue;
        }
        throw translate(e, operation, queue);
      }
    }
  }

  private <T> T runOnce(SqlWork<T> work) throws SQLException {
    try (Connection c = pool.getConnection()) {
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      }
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException rollbackFailure) {
      cause.addSuppressed(rollbackFailure);
    }
  }

  private static void backOff(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueueException(ErrorCode.UNKNOWN, "interrupted while retrying after a lock conflict", e);
    }
  }

  /** A QueueException for a failed operation; opens the breaker for connection failures. */
  public QueueException translate(SQLException e, String operation, String queue) {
    String where = operation + (queue == null ? "" : " on queue '" + queue + "'");
    if (dialect.isConnectionFailure(e)) {
      String reason = rootMessage(e);
      health.markUnreachable(reason);
      log.warn("shard '{}' ({}) unreachable during {}: {}", shardName, maskedUrl, where, reason);
      return new QueueException(ErrorCode.SHARD_CONNECTION_FAILED,
          "shard '" + shardName + "' (" + maskedUrl + ") could not be reached during " + where + ": " + reason, e);
    }
    return new QueueException(ErrorCode.UNKNOWN, where + " failed on shard '" + shardName + "': "
        + e.getMessage() + " (SQLSTATE " + e.getSQLState() + ", error " + e.getErrorCode() + ")", e);
  }

  private static String rootMessage(Throwable e) {
    StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != e) {
      sb.append(" (cause: ").append(root.getClass().getSimpleName()).append(": ").append(root.getMessage()).append(')');
    }
    return sb.toString();
  }

  @Override
  public void close() {
    pool.close();
  }
}
