package dev.flipper.queue.mysql;

import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.mysql.internal.JdbcShardStore;
import dev.flipper.queue.spi.ShardStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * Enqueues inside the application's own JDBC transaction (MySQL, MariaDB or H2): the jobs exist if
 * and only if that transaction commits, so an order row and the job that mails its confirmation are
 * written together or not at all. The application's database must be a shard of the queue's {@link
 * JdbcQueueStore} (its {@code flipper_*} tables live there); with several shards, name the one the
 * connections reach.
 *
 * <pre>{@code
 * TransactionalEnqueue jobs = TransactionalEnqueue.of(queueService);
 * try (Connection c = appDataSource.getConnection()) {
 *   c.setAutoCommit(false);
 *   insertOrder(c, order);
 *   jobs.enqueue(c, "mail", List.of(NewJob.of("confirm order " + order.id())));
 *   c.commit();
 * }
 * }</pre>
 *
 * <p>Thread-safe; each call uses only the connection it is given and never commits or rolls it
 * back.
 */
public final class TransactionalEnqueue {
  private final QueueService service;
  private final JdbcShardStore shard;

  private TransactionalEnqueue(QueueService service, JdbcShardStore shard) {
    this.service = service;
    this.shard = shard;
  }

  /** For a service over a one-shard {@link JdbcQueueStore}. */
  public static TransactionalEnqueue of(QueueService service) {
    List<ShardStore> shards = jdbcStore(service).shards();
    if (shards.size() != 1) {
      throw new IllegalArgumentException(
          "the queue store has "
              + shards.size()
              + " shards; say which one the "
              + "application's database is: TransactionalEnqueue.of(service, \"<shard name>\")");
    }
    return new TransactionalEnqueue(service, (JdbcShardStore) shards.get(0));
  }

  /**
   * For a service over a {@link JdbcQueueStore} whose shard {@code shardName} is the application's
   * database.
   */
  public static TransactionalEnqueue of(QueueService service, String shardName) {
    for (ShardStore shard : jdbcStore(service).shards()) {
      if (shard.name().equals(shardName)) {
        return new TransactionalEnqueue(service, (JdbcShardStore) shard);
      }
    }
    throw new IllegalArgumentException("the queue store has no shard named '" + shardName + "'");
  }

  private static JdbcQueueStore jdbcStore(QueueService service) {
    if (!(Objects.requireNonNull(service, "service").store() instanceof JdbcQueueStore store)) {
      throw new IllegalArgumentException(
          "transactional enqueue needs a JdbcQueueStore (MySQL, MariaDB or H2), "
              + "not "
              + service.store().getClass().getSimpleName());
    }
    return store;
  }

  /**
   * Inserts the jobs with {@code connection}, in its open transaction, validated like {@link
   * QueueService#enqueue}; returns their descriptors. The jobs become visible to dequeues when the
   * caller commits and vanish if it rolls back. The connection must not be in auto-commit mode.
   */
  public List<JobDescriptor> enqueue(Connection connection, String queue, List<NewJob> jobs) {
    Objects.requireNonNull(connection, "connection");
    try {
      if (connection.getAutoCommit()) {
        throw new IllegalArgumentException(
            "the connection is in auto-commit mode, so the jobs would not be part "
                + "of a transaction; call connection.setAutoCommit(false) first, and commit() after the enqueue");
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("the connection cannot be used: " + e.getMessage(), e);
    }
    return service.enqueueOn(
        shard.name(),
        queue,
        jobs,
        (name, records) -> shard.enqueueInTransaction(connection, name, records));
  }
}
