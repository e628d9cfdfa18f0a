package dev.flipper.queue.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.jdbc.Dialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * H2's plans for the claim's statements (H2 claims lock their candidates by id, see
 * RowSelect#lock).
 */
class H2QueryPlanTest {
  private final Dialect dialect = Dialect.H2;
  @TempDir Path dir;
  private HikariDataSource pool;

  @BeforeEach
  void createSchemaWithRows() throws Exception {
    pool = new HikariDataSource();
    pool.setJdbcUrl(
        dialect.configureUrl(
            "jdbc:h2:file:" + dir.resolve("plan") + ";MODE=MySQL", Duration.ofSeconds(5)));
    pool.setUsername("sa");
    pool.setPassword("");
    pool.setMaximumPoolSize(2);
    pool.setAutoCommit(false);
    JobSchema.migrator(dialect).migrate(pool);
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "INSERT INTO flipper_jobs (queue_name, priority, state, run_after, updated_at, created_at,"
              + " attempts_allowed, attempts_remaining, body) SELECT 'q', 1, 0, X, X, 0, 2, 2, X'00'"
              + " FROM SYSTEM_RANGE(1, 3000)");
      c.commit();
    }
  }

  @AfterEach
  void close() {
    pool.close();
  }

  /**
   * In the peer suite a drain on H2 fell to 600 jobs/s at 3 ms of the server's CPU per job: the
   * lock by id went through the queue index and read every PENDING job of the queue for each claim.
   */
  @Test
  void aClaimLocksItsCandidatesThroughAnIndexOnTheirIds() throws Exception {
    RowSelect due = JobSql.due(dialect, "q", 1, 5000L);
    List<Object> params = new ArrayList<>(List.of(17L, 18L, 19L));
    params.addAll(due.params());

    String plan = explain(due.lockByIdSql(dialect, 3), params);

    assertThat(plan).contains("FLIPPER_JOBS_ID: LOCAL_ID IN");
  }

  private String explain(String sql, List<Object> params) throws Exception {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
      for (int i = 0; i < params.size(); i++) {
        ps.setObject(i + 1, params.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        String plan = rs.getString(1);
        c.commit();
        return plan;
      }
    }
  }
}
