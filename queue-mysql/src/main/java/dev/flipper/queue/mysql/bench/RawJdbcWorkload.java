package dev.flipper.queue.mysql.bench;

import dev.flipper.jdbc.Dialect;
import dev.flipper.queue.mysql.internal.ClaimFloors;
import dev.flipper.queue.mysql.internal.IdLists;
import dev.flipper.queue.mysql.internal.JobSql;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ceiling: the store's statements on one plain JDBC connection per thread, nothing else but the
 * store's retry after a deadlock.
 */
public final class RawJdbcWorkload implements Workload {
  /** The queue the benchmark drives. */
  public static final String QUEUE = "bench_q";

  @FunctionalInterface
  private interface SqlCall<T> {
    T run() throws SQLException;
  }

  private final String url;
  private final String user;
  private final String password;
  private final String queueRowLock;
  private final byte[] body;

  /** Shared by the workload's connections, as a store shares one across its pool. */
  private final ClaimFloors floors = new ClaimFloors();

  private record DueRow(long id, long runAfter) {}

  public RawJdbcWorkload(
      String url, String user, String password, String queueRowLock, byte[] body) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.queueRowLock = queueRowLock;
    this.body = body;
  }

  static void bindJob(PreparedStatement ps, long now, byte[] body) throws SQLException {
    ps.setString(1, QUEUE);
    ps.setInt(2, 1);
    ps.setLong(3, now);
    ps.setLong(4, now);
    ps.setLong(5, now);
    ps.setInt(6, 2);
    ps.setInt(7, 2);
    ps.setString(8, "");
    ps.setBinaryStream(
        9, new java.io.ByteArrayInputStream(body), body.length); // as JdbcShardStore binds it
  }

  @Override
  public Worker worker(String source) throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    c.setAutoCommit(false);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    byte[] sourceBytes = source.getBytes(StandardCharsets.UTF_8);
    Dialect dialect = Dialect.forUrl(url);
    String selectDue = JobSql.selectDue(dialect) + JobSql.SKIP_LOCKED;
    String selectDueFrom = JobSql.selectDueFrom(dialect) + JobSql.SKIP_LOCKED;
    String selectDueBelow = JobSql.selectDueBelow(dialect) + JobSql.SKIP_LOCKED;
    return new Worker() {
      @Override
      public int enqueue(int batch) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement(JobSql.QUEUE_ROW + queueRowLock)) {
          lock.setString(1, QUEUE);
          lock.executeQuery().close();
        }
        int ids = 0;
        try (PreparedStatement ps =
            c.prepareStatement(JobSql.INSERT_JOB, Statement.RETURN_GENERATED_KEYS)) {
          long now = System.currentTimeMillis();
          for (int i = 0; i < batch; i++) {
            bindJob(ps, now, body);
            ps.addBatch();
          }
          ps.executeBatch();
          try (ResultSet keys = ps.getGeneratedKeys()) {
            while (keys.next()) {
              ids++;
            }
          }
        }
        c.commit();
        return ids;
      }

      private List<Long> previous = List.of();

      @Override
      public int dequeueAndAck(int batch) throws SQLException {
        long now = System.currentTimeMillis();
        List<Long> ids = inTransaction(() -> claim(batch, now));
        if (ids.isEmpty()) {
          return 0;
        }
        inTransaction(() -> ack(ids, now));
        return ids.size();
      }

      @Override
      public int dequeueAckingPrevious(int batch) throws SQLException {
        long now = System.currentTimeMillis();
        int acked = previous.size();
        previous =
            inTransaction(
                () -> {
                  if (acked > 0) {
                    ack(previous, now);
                  }
                  return claim(batch, now);
                });
        return acked;
      }

      @Override
      public int ackPrevious() throws SQLException {
        int acked = previous.size();
        if (acked > 0) {
          inTransaction(() -> ack(previous, System.currentTimeMillis()));
          previous = List.of();
        }
        return acked;
      }

      /** Runs and commits; rolls back and runs again after a deadlock, as the store does. */
      private <T> T inTransaction(SqlCall<T> call) throws SQLException {
        for (int attempt = 1; ; attempt++) {
          try {
            T result = call.run();
            c.commit();
            return result;
          } catch (SQLException e) {
            c.rollback();
            if (attempt >= 5 || !"40001".equals(e.getSQLState())) {
              throw e;
            }
          }
        }
      }

      /**
       * SELECT ... FOR UPDATE SKIP LOCKED from the claim floor as the store does (see ClaimFloors),
       * then the claim UPDATE if anything was selected; no commit.
       */
      private List<Long> claim(int batch, long now) throws SQLException {
        List<Long> ids = new ArrayList<>(batch);
        for (DueRow row :
            floors.lockDue(
                QUEUE,
                1,
                batch,
                (from, below, n) -> select(now, from, below, n),
                DueRow::runAfter)) {
          ids.add(row.id());
        }
        if (ids.isEmpty()) {
          return ids;
        }
        try (PreparedStatement ps = c.prepareStatement(JobSql.claim(dialect, ids.size()))) {
          ps.setString(1, "bench:" + source);
          ps.setBytes(2, sourceBytes);
          ps.setLong(3, now);
          IdLists.bind(ps, 4, ids);
          ps.executeUpdate();
        }
        return ids;
      }

      /** The locking SELECT of a claim, in the run_after band ClaimFloors asks for. */
      private List<DueRow> select(long now, Long from, Long below, int limit) throws SQLException {
        String sql = from != null ? selectDueFrom : below != null ? selectDueBelow : selectDue;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          int i = 1;
          ps.setString(i++, QUEUE);
          ps.setInt(i++, 1);
          ps.setLong(i++, now);
          if (from != null || below != null) {
            ps.setLong(i++, from != null ? from : below);
          }
          ps.setInt(i, limit);
          List<DueRow> rows = new ArrayList<>(limit);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              rows.add(new DueRow(rs.getLong(1), rs.getLong(8)));
              rs.getBytes(11);
            }
          }
          return rows;
        }
      }

      private List<Long> ack(List<Long> ids, long now) throws SQLException {
        try (PreparedStatement ps =
            c.prepareStatement(JobSql.ackSucceeded(dialect, ids.size(), false))) {
          ps.setLong(1, now);
          ps.setString(2, QUEUE);
          ps.setInt(3, 1);
          IdLists.bind(ps, 4, ids);
          ps.executeUpdate();
        }
        return ids;
      }

      @Override
      public void close() throws SQLException {
        c.close();
      }
    };
  }

  /** Inserts {@code backlog} due jobs in large batches, for a dequeue phase (not timed). */
  public static void insertBacklog(
      String url, String user, String password, int backlog, byte[] body) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(
                Dialect.forUrl(url).configureUrl(url, Duration.ofSeconds(5)), user, password);
        PreparedStatement ps = c.prepareStatement(JobSql.INSERT_JOB)) {
      c.setAutoCommit(false);
      long now = System.currentTimeMillis() - 1000;
      for (int i = 0; i < backlog; i++) {
        RawJdbcWorkload.bindJob(ps, now, body);
        ps.addBatch();
        if (i % 1000 == 999 || i == backlog - 1) {
          ps.executeBatch();
          c.commit();
        }
      }
    }
  }
}
