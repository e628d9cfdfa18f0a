package dev.flipper.token.jdbc.internal;

import static dev.flipper.token.jdbc.internal.TokenSchema.HISTORY_LABEL_LENGTH;
import static dev.flipper.token.jdbc.internal.TokenSchema.HISTORY_NAME_LENGTH;
import static dev.flipper.token.jdbc.internal.TokenSchema.HISTORY_WORKER_LENGTH;
import static dev.flipper.token.jdbc.internal.TokenSchema.JOB_RUNS;
import static dev.flipper.token.jdbc.internal.TokenSchema.RUNS;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.jdbc.Dialect;
import dev.flipper.token.TokenException;
import dev.flipper.token.TokenNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The run history's statements over {@code flipper_runs} and {@code flipper_job_runs}, inside a
 * transaction the store opens: replacing an instance's record, deleting it, and reading filtered,
 * sorted pages. Every value is bound; no text from a query or a record is ever part of the SQL.
 * Stateless.
 */
public final class RunHistorySql {
  private static final String RUN_COLUMNS =
      "workflow, instance, status, started_by, start_ms, end_ms, params, failed_jobs";
  private static final String EXECUTION_COLUMNS =
      "workflow, instance, job, execution, attempt, status, start_ms, end_ms, exit_code, worker,"
          + " host, end_reason, logs";

  /** The LIKE escape character: neither a backslash (NO_BACKSLASH_ESCAPES) nor a wildcard. */
  private static final char LIKE_ESCAPE = '!';

  private RunHistorySql() {}

  /**
   * Throws INPUT_ERROR, naming the field, for a record the tables cannot hold: a name that is not
   * visible ASCII (as token names) or longer than {@value TokenSchema#HISTORY_NAME_LENGTH}, a
   * status or trigger over {@value TokenSchema#HISTORY_LABEL_LENGTH} characters, a worker or host
   * over {@value TokenSchema#HISTORY_WORKER_LENGTH}.
   */
  public static void check(RunArchive archive) {
    RunRecord run = archive.run();
    String where = "run " + run.workflow() + "/" + run.instance();
    checkName(where, "workflow", run.workflow());
    checkName(where, "instance", run.instance());
    checkLength(where, "status", run.status(), HISTORY_LABEL_LENGTH);
    checkLength(where, "startedBy", run.startedBy(), HISTORY_LABEL_LENGTH);
    for (ExecutionRecord e : archive.executions()) {
      String of = where + ", execution " + e.job() + "#" + e.execution();
      checkName(of, "job", e.job());
      checkLength(of, "status", e.status(), HISTORY_LABEL_LENGTH);
      checkLength(of, "worker", e.worker(), HISTORY_WORKER_LENGTH);
      checkLength(of, "host", e.host(), HISTORY_WORKER_LENGTH);
    }
  }

  private static void checkName(String where, String field, String value) {
    checkLength(where, field, value, HISTORY_NAME_LENGTH);
    if (value.isEmpty() || !TokenNames.canOccurInName(value)) {
      throw TokenException.inputError(
          where
              + ": "
              + field
              + " '"
              + value
              + "' must be non-empty visible ASCII, as token names");
    }
  }

  private static void checkLength(String where, String field, String value, int max) {
    if (value.length() > max) {
      throw TokenException.inputError(
          where
              + ": "
              + field
              + " is "
              + value.length()
              + " characters long; at most "
              + max
              + " are kept");
    }
  }

  /** Replaces the record of the archive's instance (its run row and every execution row). */
  public static void replace(Connection c, RunArchive archive) throws SQLException {
    RunRecord run = archive.run();
    delete(c, run.workflow(), run.instance());
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + RUNS
                + " ("
                + RUN_COLUMNS
                + ", search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, run.workflow());
      ps.setString(2, run.instance());
      ps.setString(3, run.status());
      ps.setString(4, run.startedBy());
      ps.setLong(5, run.startMillis());
      setNullableLong(ps, 6, run.endMillis());
      ps.setString(7, JsonStrings.object(run.params()));
      ps.setString(8, JsonStrings.array(run.failedJobs()));
      ps.setString(9, RunQuery.searchText(run));
      ps.executeUpdate();
    }
    if (archive.executions().isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + JOB_RUNS
                + " ("
                + EXECUTION_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (ExecutionRecord e : archive.executions()) {
        ps.setString(1, e.workflow());
        ps.setString(2, e.instance());
        ps.setString(3, e.job());
        ps.setInt(4, e.execution());
        ps.setInt(5, e.attempt());
        ps.setString(6, e.status());
        ps.setLong(7, e.startMillis());
        setNullableLong(ps, 8, e.endMillis());
        if (e.exitCode() == null) {
          ps.setNull(9, Types.INTEGER);
        } else {
          ps.setInt(9, e.exitCode());
        }
        ps.setString(10, e.worker());
        ps.setString(11, e.host());
        ps.setString(12, e.endReason());
        ps.setString(13, JsonStrings.object(e.logs()));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** Deletes an instance's run and execution rows; returns how many went. */
  public static int delete(Connection c, String workflow, String instance) throws SQLException {
    int deleted = 0;
    for (String table : List.of(JOB_RUNS, RUNS)) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM " + table + " WHERE workflow = ? AND instance = ?")) {
        ps.setString(1, workflow);
        ps.setString(2, instance);
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  /**
   * One page of runs and the count of all matches, read in the caller's snapshot. Filters other
   * than text are served by indexes, and counted in a narrow one. A text search, which no index
   * serves, reads every run in range once, in key order, picking the page's keys and counting the
   * matches in the same pass ({@code COUNT(*) OVER ()}); the page's rows are read after by key, so
   * the sort of the matches carries no long text.
   */
  public static RunPage queryRuns(Connection c, Dialect dialect, RunQuery query)
      throws SQLException {
    Where where = runFilter(query);
    String order =
        sortKey(query.sort()) + (query.workflow() == null ? ", workflow" : "") + ", instance";
    if (query.text() == null) {
      // The page's keys from the index first, then their rows: with OFFSET, MariaDB reads the whole
      // row of every run it skips (page 1,800 of 50 with 90,000 runs: 0.65 s, by keys 0.1 s).
      List<List<String>> keys = new ArrayList<>();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT workflow, instance FROM "
                  + RUNS
                  + where.sql()
                  + " ORDER BY "
                  + order
                  + " LIMIT ? OFFSET ?")) {
        bindPage(ps, where.bind(ps, 1), query);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            keys.add(List.of(rs.getString(1), rs.getString(2)));
          }
        }
      }
      long total = count(c, dialect.runsCounted(), where);
      return new RunPage(keys.isEmpty() ? List.of() : runsByKey(c, keys), total);
    }
    boolean inRange = query.startFrom() != null || query.startBefore() != null;
    List<List<String>> keys = new ArrayList<>();
    long total = -1;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT workflow, instance, COUNT(*) OVER () FROM "
                + (inRange ? RUNS : dialect.runsInKeyOrder())
                + where.sql()
                + " ORDER BY "
                + order
                + " LIMIT ? OFFSET ?")) {
      bindPage(ps, where.bind(ps, 1), query);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(List.of(rs.getString(1), rs.getString(2)));
          total = rs.getLong(3);
        }
      }
    }
    if (keys.isEmpty()) { // no match, or a page past the last one
      return new RunPage(List.of(), count(c, RUNS, where));
    }
    return new RunPage(runsByKey(c, keys), total);
  }

  /** The runs of the (workflow, instance) keys, in the keys' order. */
  private static List<RunRecord> runsByKey(Connection c, List<List<String>> keys)
      throws SQLException {
    Map<List<String>, RunRecord> byKey = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + RUN_COLUMNS
                + " FROM "
                + RUNS
                + " WHERE (workflow, instance) IN ("
                + String.join(", ", java.util.Collections.nCopies(keys.size(), "(?, ?)"))
                + ")")) {
      int index = 1;
      for (List<String> key : keys) {
        ps.setString(index++, key.get(0));
        ps.setString(index++, key.get(1));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          RunRecord run = readRun(rs);
          byKey.put(List.of(run.workflow(), run.instance()), run);
        }
      }
    }
    List<RunRecord> runs = new ArrayList<>(keys.size());
    for (List<String> key : keys) {
      runs.add(byKey.get(key)); // present: read in the same snapshot
    }
    return runs;
  }

  private static void bindPage(PreparedStatement ps, int index, RunQuery query)
      throws SQLException {
    ps.setInt(index, query.limit());
    ps.setInt(index + 1, query.offset());
  }

  /** One page of executions and the count of all matches, read in the caller's snapshot. */
  public static ExecutionPage queryExecutions(Connection c, ExecutionQuery query)
      throws SQLException {
    if (!query.instances().isEmpty()) {
      return executionsOfInstances(c, query);
    }
    Where where = new Where().equal("workflow", query.workflow());
    if (query.job() != null) {
      where.equal("job", query.job());
    }
    where.in("instance", query.instances()).in("status", List.copyOf(query.statuses()));
    // Columns the WHERE fixes are left out: MariaDB sorts when ORDER BY names them.
    String order =
        "newest_key"
            + (query.instances().size() == 1 ? "" : ", instance")
            + (query.job() != null ? "" : ", job")
            + ", execution";
    // One job's executions by the job index: MariaDB counts them over the primary key otherwise,
    // every execution of the workflow (3.3 s instead of 0.1 s for 90,000 of 900,000).
    String table = JOB_RUNS + (query.job() != null ? " USE INDEX (flipper_job_runs_job)" : "");
    List<ExecutionRecord> executions = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + EXECUTION_COLUMNS
                + " FROM "
                + table
                + where.sql()
                + " ORDER BY "
                + order
                + " LIMIT ? OFFSET ?")) {
      int index = where.bind(ps, 1);
      ps.setInt(index, query.limit());
      ps.setInt(index + 1, query.offset());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          executions.add(readExecution(rs));
        }
      }
    }
    return new ExecutionPage(executions, count(c, table, where));
  }

  /**
   * The executions of named instances (a grid of recent runs), read instance by instance on the
   * primary key and paged here: H2 uses an index for an IN list only on an index's first column,
   * and scanned every execution of the workflow for {@code instance IN (...)} (2 s at a million).
   */
  private static ExecutionPage executionsOfInstances(Connection c, ExecutionQuery query)
      throws SQLException {
    List<ExecutionRecord> matches = new ArrayList<>();
    for (String instance : new LinkedHashSet<>(query.instances())) {
      Where where = new Where().equal("workflow", query.workflow()).equal("instance", instance);
      if (query.job() != null) {
        where.equal("job", query.job());
      }
      where.in("status", List.copyOf(query.statuses()));
      try (PreparedStatement ps =
          c.prepareStatement("SELECT " + EXECUTION_COLUMNS + " FROM " + JOB_RUNS + where.sql())) {
        where.bind(ps, 1);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            matches.add(readExecution(rs));
          }
        }
      }
    }
    matches.sort(ExecutionQuery.ORDER);
    int from = Math.min(query.offset(), matches.size());
    int to = Math.min(matches.size(), from + query.limit());
    return new ExecutionPage(matches.subList(from, to), matches.size());
  }

  private static Where runFilter(RunQuery query) {
    Where where = new Where();
    if (query.workflow() != null) {
      where.equal("workflow", query.workflow());
    }
    where
        .in("status", List.copyOf(query.statuses()))
        .in("started_by", List.copyOf(query.startedBy()));
    // The start range on the key the page is read by: newest_key is minus the start, so
    // start >= from is newest_key <= -from. start_ms where negating would overflow.
    boolean byStart = query.sort() == RunSort.OLDEST;
    if (query.startFrom() != null) {
      if (byStart || query.startFrom() == Long.MIN_VALUE) {
        where.add("start_ms >= ?", query.startFrom());
      } else {
        where.add("newest_key <= ?", -query.startFrom());
      }
    }
    if (query.startBefore() != null) {
      if (byStart || query.startBefore() == Long.MIN_VALUE) {
        where.add("start_ms < ?", query.startBefore());
      } else {
        where.add("newest_key > ?", -query.startBefore());
      }
    }
    if (query.text() != null) {
      where.add(
          "search_text LIKE ? ESCAPE '" + LIKE_ESCAPE + "'",
          "%" + likeLiteral(query.searchedText()) + "%");
    }
    return where;
  }

  private static String sortKey(RunSort sort) {
    return switch (sort) {
      case NEWEST -> "newest_key";
      case OLDEST -> "start_ms";
      case LONGEST -> "longest_key";
      case SHORTEST -> "shortest_key";
    };
  }

  /** The text matched literally by LIKE: its wildcards and the escape character escaped. */
  static String likeLiteral(String text) {
    StringBuilder literal = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' || c == '_' || c == LIKE_ESCAPE) {
        literal.append(LIKE_ESCAPE);
      }
      literal.append(c);
    }
    return literal.toString();
  }

  private static long count(Connection c, String table, Where where) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + table + where.sql())) {
      where.bind(ps, 1);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static RunRecord readRun(ResultSet rs) throws SQLException {
    long end = rs.getLong(6);
    Long endMillis = rs.wasNull() ? null : end;
    return new RunRecord(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getLong(5),
        endMillis,
        JsonStrings.parseObject(rs.getString(7)),
        JsonStrings.parseArray(rs.getString(8)));
  }

  private static ExecutionRecord readExecution(ResultSet rs) throws SQLException {
    long end = rs.getLong(8);
    Long endMillis = rs.wasNull() ? null : end;
    int exit = rs.getInt(9);
    Integer exitCode = rs.wasNull() ? null : exit;
    return new ExecutionRecord(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getInt(4),
        rs.getInt(5),
        rs.getString(6),
        rs.getLong(7),
        endMillis,
        exitCode,
        rs.getString(10),
        rs.getString(11),
        rs.getString(12),
        JsonStrings.parseObject(rs.getString(13)));
  }

  private static void setNullableLong(PreparedStatement ps, int index, Long value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.BIGINT);
    } else {
      ps.setLong(index, value);
    }
  }

  /** A WHERE clause of fixed SQL with {@code ?} placeholders and the values they take, in order. */
  private static final class Where {
    private final List<String> conditions = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();

    Where add(String condition, Object... bound) {
      conditions.add(condition);
      values.addAll(List.of(bound));
      return this;
    }

    Where equal(String column, String value) {
      return add(column + " = ?", value);
    }

    /** {@code column IN (...)} unless {@code any} is empty (no filter). */
    Where in(String column, List<String> any) {
      return any.isEmpty()
          ? this
          : add(column + " IN (" + TokenRows.placeholders(any.size()) + ")", any.toArray());
    }

    String sql() {
      return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    int bind(PreparedStatement ps, int index) throws SQLException {
      for (Object value : values) {
        if (value instanceof Long number) {
          ps.setLong(index++, number);
        } else {
          ps.setString(index++, (String) value);
        }
      }
      return index;
    }
  }
}
