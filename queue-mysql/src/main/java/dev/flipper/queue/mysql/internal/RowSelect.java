package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SELECT of {@code flipper_jobs} rows: columns (the first is local_id), a WHERE with parameters,
 * an ORDER BY that an index provides (so the database reads only as many entries as the LIMIT), and
 * the LIMIT. {@link #lock} also locks the rows it returns, skipping rows other transactions hold.
 * Immutable.
 */
final class RowSelect {

  @FunctionalInterface
  interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private final String table;
  private final String columns;
  private final String where;
  private final String orderBy;
  private final Object[] params;

  private RowSelect(String table, String columns, String where, String orderBy, Object[] params) {
    this.table = table;
    this.columns = columns;
    this.where = where;
    this.orderBy = orderBy;
    this.params = params;
  }

  /** Parameters are Long, Integer or String, bound in order. */
  static RowSelect of(String columns, String where, String orderBy, Object... params) {
    return new RowSelect("flipper_jobs", columns, where, orderBy, params);
  }

  /** The same select from {@code table}: the jobs table with an index hint. */
  RowSelect from(String table) {
    return new RowSelect(table, columns, where, orderBy, params);
  }

  /** The WHERE's parameters in order (the LIMIT follows them). */
  List<Object> params() {
    return List.of(params);
  }

  /** The statement text; LIMIT is the last parameter. */
  String sql(String suffix) {
    return "SELECT "
        + columns
        + " FROM "
        + table
        + " WHERE "
        + where
        + " ORDER BY "
        + orderBy
        + " LIMIT ?"
        + suffix;
  }

  /** Up to {@code limit} rows in order, without locks (a consistent read). */
  <T> List<T> read(Connection c, int limit, RowReader<T> reader) throws SQLException {
    return query(c, sql(""), limit, reader);
  }

  /**
   * Up to {@code limit} rows in order, each locked FOR UPDATE; rows locked by other transactions
   * are skipped, never waited for.
   */
  <T> List<T> lock(Connection c, Dialect dialect, int limit, RowReader<T> reader)
      throws SQLException {
    if (dialect.appliesLimitBeforeLocking()) {
      return query(c, sql(JobSql.SKIP_LOCKED), limit, reader);
    }
    return lockById(c, dialect, limit, reader);
  }

  private <T> List<T> query(Connection c, String sql, int limit, RowReader<T> reader)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = bind(ps, 1);
      ps.setInt(i, limit);
      List<T> rows = new ArrayList<>(Math.min(limit, 1024));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(reader.read(rs));
        }
      }
      return rows;
    }
  }

  /**
   * The statement that locks candidates by id, re-checking the condition: the ids, then the WHERE's
   * parameters.
   */
  String lockByIdSql(Dialect dialect, int ids) {
    return "SELECT "
        + columns
        + " FROM "
        + dialect.jobsToLockById()
        + " WHERE local_id IN "
        + IdLists.placeholders(ids)
        + " AND "
        + where
        + JobSql.SKIP_LOCKED;
  }

  /**
   * For databases that lock every row a FOR UPDATE query reads before applying its LIMIT (H2 does,
   * which makes a claim over a large backlog lock the whole backlog): read candidate ids in order
   * without locks, then lock exactly those, re-checking the condition, and move on to the next
   * candidates for the ones another transaction holds.
   */
  private <T> List<T> lockById(Connection c, Dialect dialect, int limit, RowReader<T> reader)
      throws SQLException {
    String candidates =
        "SELECT local_id FROM flipper_jobs WHERE "
            + where
            + " ORDER BY "
            + orderBy
            + " LIMIT ? OFFSET ?";
    int window = Math.max(limit, 16);
    List<T> rows = new ArrayList<>(Math.min(limit, 1024));
    Set<Long> taken = new HashSet<>();
    for (int offset = 0, round = 0; rows.size() < limit && round < 8; offset += window, round++) {
      List<Long> ids = new ArrayList<>(window);
      int read = 0;
      try (PreparedStatement ps = c.prepareStatement(candidates)) {
        int i = bind(ps, 1);
        ps.setInt(i++, window);
        ps.setInt(i, offset);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            read++;
            long id = rs.getLong(1);
            if (!taken.contains(id)) {
              ids.add(id);
            }
          }
        }
      }
      for (List<Long> chunk : IdLists.chunks(ids)) {
        Map<Long, T> locked = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(lockByIdSql(dialect, chunk.size()))) {
          int i = IdLists.bind(ps, 1, chunk);
          bind(ps, i);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              locked.put(rs.getLong(1), reader.read(rs));
            }
          }
        }
        for (Long id : chunk) {
          T row = locked.get(id);
          if (row != null && rows.size() < limit && taken.add(id)) {
            rows.add(row);
          }
        }
      }
      if (read < window) {
        break; // no more candidates
      }
    }
    return rows;
  }

  private int bind(PreparedStatement ps, int index) throws SQLException {
    for (Object param : params) {
      if (param instanceof Long l) {
        ps.setLong(index++, l);
      } else if (param instanceof Integer n) {
        ps.setInt(index++, n);
      } else if (param instanceof String s) {
        ps.setString(index++, s);
      } else {
        throw new IllegalArgumentException(
            "unsupported parameter type " + param + " (indicates a bug)");
      }
    }
    return index;
  }
}
