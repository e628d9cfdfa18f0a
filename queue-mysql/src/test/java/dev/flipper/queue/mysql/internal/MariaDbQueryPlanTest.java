package dev.flipper.queue.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.jdbc.Dialect;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The hot and the monitor's queries read an index in order and stop at the LIMIT: no filesort, no
 * scan of the whole table. (Naming the leading index columns in ORDER BY, as H2 needs, made MariaDB
 * sort.)
 */
@Tag("mariadb")
class MariaDbQueryPlanTest {
  private static final String SERVER = "jdbc:mysql://127.0.0.1:3306/";
  private final Dialect dialect = Dialect.MYSQL;
  private String database;
  private HikariDataSource pool;

  @BeforeEach
  void createSchemaWithRows() throws Exception {
    TestServices.requireMariaDb();
    database = "flipper_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    try (Connection c = DriverManager.getConnection(SERVER, "root", "");
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + database);
    }
    pool = new HikariDataSource();
    pool.setJdbcUrl(dialect.configureUrl(SERVER + database, Duration.ofSeconds(5)));
    pool.setUsername("root");
    pool.setPassword("");
    pool.setMaximumPoolSize(2);
    pool.setAutoCommit(false);
    JobSchema.migrator(dialect).migrate(pool);
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      StringBuilder insert =
          new StringBuilder(
              "INSERT INTO flipper_jobs (queue_name, priority, state, run_after,"
                  + " updated_at, created_at, attempts_allowed, attempts_remaining, body) VALUES ");
      for (int i = 0; i < 3000; i++) {
        insert
            .append(i == 0 ? "" : ",")
            .append("('q")
            .append(i % 3)
            .append("', ")
            .append(1 + i % 2)
            .append(", ")
            .append(i % 4)
            .append(", ")
            .append(i)
            .append(", ")
            .append(i)
            .append(", 0, 2, 2, 'x')");
      }
      st.execute(insert.toString());
      st.execute("ANALYZE TABLE flipper_jobs");
      c.commit();
    }
  }

  @AfterEach
  void drop() throws Exception {
    pool.close();
    try (Connection c = DriverManager.getConnection(SERVER, "root", "");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + database);
    }
  }

  @Test
  void claimScanRetryAndMonitorQueriesUseAnIndexInOrder() throws Exception {
    List<RowSelect> selects = new ArrayList<>();
    selects.add(JobSql.due(dialect, "q1", 1, 2000L));
    selects.addAll(
        JobSql.page(dialect, JobRows.COLUMNS, "q1", 1, 0, false, 2000L, ScanBound.START));
    selects.addAll(
        JobSql.page(dialect, JobRows.COLUMNS, "q1", 1, 2, true, 100L, new ScanBound(2500, 2500)));
    selects.addAll(
        JobSql.page(dialect, JobRows.COLUMNS, "q1", 1, 2, false, 3000L, new ScanBound(2498, 2499)));
    selects.add(JobSql.inState(dialect, "q1", 2, 3));
    selects.add(JobSql.updatedBefore("local_id, queue_name", 1, 2000L));
    for (RowSelect select : selects) {
      List<Object> params = new ArrayList<>(select.params());
      params.add(100); // the LIMIT
      for (String plan : explain(pool, select.sql(JobSql.SKIP_LOCKED), params)) {
        assertThat(plan)
            .as(select.sql(""))
            .doesNotContain("filesort")
            .doesNotContain("type=ALL")
            .containsPattern("key=flipper_jobs_(queue|monitor)");
      }
    }
  }

  /**
   * A claim from the floor (ClaimFloors) ranges on run_after: a lookup on three columns reads from
   * the head.
   */
  @Test
  void aClaimFromTheFloorRangesOnRunAfter() throws Exception {
    RowSelect fromFloor = JobSql.dueFrom(dialect, "q1", 1, 2000L, 1000L);
    List<Object> params = new ArrayList<>(fromFloor.params());
    params.add(16); // the LIMIT

    List<String> plan = explain(pool, fromFloor.sql(JobSql.SKIP_LOCKED), params);

    assertThat(plan)
        .singleElement()
        .asString()
        .contains("type=range")
        .contains("key=flipper_jobs_queue");
  }

  /**
   * Issue 16 item 5: a page after a bound read every job at the bound's run_after from the top
   * again (a ref on four index columns), so paging through jobs enqueued together was quadratic.
   * Each page now reads about its own rows: ANALYZE runs the statements and reports the rows read.
   */
  @Test
  void aPageAfterABoundReadsAboutItsOwnRowsWhenManyJobsShareTheRunAfter() throws Exception {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO flipper_jobs (queue_name, priority, state, run_after, updated_at, created_at,"
              + " attempts_allowed, attempts_remaining, body) SELECT 'ties', 1, 0, 5000, 0, 0, 2, 2, 'x' FROM seq_1_to_4000");
      st.execute("ANALYZE TABLE flipper_jobs");
      c.commit();
    }
    long middle;
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT MIN(local_id) + 2000 FROM flipper_jobs WHERE queue_name = 'ties'")) {
      rs.next();
      middle = rs.getLong(1);
      c.commit();
    }
    for (RowSelect part :
        JobSql.page(
            dialect, JobRows.COLUMNS, "ties", 1, 0, false, 9000L, new ScanBound(5000, middle))) {
      List<Object> params = new ArrayList<>(part.params());
      params.add(100); // the LIMIT
      assertThat(rowsRead(pool, part.sql(""), params)).as(part.sql("")).isLessThanOrEqualTo(101);
    }
  }

  /** The rows the statement read, from ANALYZE FORMAT=JSON (it runs the statement). */
  private static long rowsRead(DataSource ds, String sql, List<Object> params) throws Exception {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("ANALYZE FORMAT=JSON " + sql)) {
      for (int i = 0; i < params.size(); i++) {
        ps.setObject(i + 1, params.get(i));
      }
      String json;
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        json = rs.getString(1);
      }
      c.commit();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\"r_rows\":\\s*([0-9.]+)").matcher(json);
      assertThat(m.find()).as(json).isTrue();
      return (long) Double.parseDouble(m.group(1));
    }
  }

  @Test
  void acksUpdateByPrimaryKeySoConcurrentAcksCannotDeadlockOnTheQueueIndex() throws Exception {
    List<Object> params = new ArrayList<>(List.of(5L, "q1", 1));
    for (long id = 1; id <= 128; id++) {
      params.add(id);
    }
    List<String> plan = explain(pool, JobSql.ackSucceeded(dialect, 128, false), params);

    assertThat(plan).singleElement().asString().contains("key=PRIMARY");
  }

  private static List<String> explain(DataSource ds, String sql, List<Object> params)
      throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
      for (int i = 0; i < params.size(); i++) {
        ps.setObject(i + 1, params.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              "type="
                  + rs.getString("type")
                  + " key="
                  + rs.getString("key")
                  + " extra="
                  + rs.getString("Extra"));
        }
      }
      c.commit();
    }
    return rows;
  }
}
