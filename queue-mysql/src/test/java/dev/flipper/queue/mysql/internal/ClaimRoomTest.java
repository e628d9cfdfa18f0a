package dev.flipper.queue.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.internal.SchemaMigrator;
import dev.flipper.queue.mysql.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migration 2 on a database at version 1: existing rows keep working without room, new rows reserve
 * {@link JobSql#CLAIM_ROOM_BYTES} bytes, and the claim gives the room back.
 */
class ClaimRoomTest {
  private final TestDatabases databases = new TestDatabases();

  @TempDir Path dir;

  @AfterEach
  void drop() {
    databases.close();
  }

  @Test
  @Tag("mariadb")
  void upgradeFromVersionOneOnMariaDb() throws Exception {
    assertUpgradeAndClaim(databases.newMariaDb());
  }

  @Test
  void upgradeFromVersionOneOnH2() throws Exception {
    assertUpgradeAndClaim(TestDatabases.h2Url(dir, "room"));
  }

  private static void assertUpgradeAndClaim(String url) throws Exception {
    Dialect dialect = Dialect.forUrl(url);
    try (HikariDataSource ds = dataSource(url, dialect)) {
      List<SchemaMigrator.Migration> versionOne = JobSchema.migrations(dialect).subList(0, 1);
      assertThat(
              new SchemaMigrator(dialect, JobSchema.VERSION_TABLE, "schema", versionOne)
                  .migrate(ds))
          .isEqualTo(1);
      long old = insertJob(ds);

      assertThat(JobSchema.migrator(dialect).migrate(ds))
          .as("every migration after version 1")
          .isEqualTo(JobSchema.migrations(dialect).size() - 1);
      long fresh = insertJob(ds);

      assertThat(room(ds, old)).isNull();
      assertThat(room(ds, fresh)).hasSize(JobSql.CLAIM_ROOM_BYTES);
      try (Connection c = ds.getConnection();
          PreparedStatement ps = c.prepareStatement(JobSql.claim(dialect, 2))) {
        ps.setString(1, "server:1:1:worker");
        ps.setBytes(2, "worker".getBytes());
        ps.setLong(3, 5L);
        IdLists.bind(ps, 4, List.of(old, fresh));
        assertThat(ps.executeUpdate()).isEqualTo(2);
        c.commit();
      }
      assertThat(room(ds, old)).isNull();
      assertThat(room(ds, fresh)).isNull();

      // A crash after the ALTERs but before version 2 was recorded: the next start applies it
      // again.
      try (Connection c = ds.getConnection();
          Statement st = c.createStatement()) {
        st.execute("DELETE FROM flipper_schema_version WHERE version = 2");
        c.commit();
      }
      assertThat(JobSchema.migrator(dialect).migrate(ds)).isEqualTo(1);
      assertThat(room(ds, insertJob(ds))).hasSize(JobSql.CLAIM_ROOM_BYTES);
    }
  }

  private static HikariDataSource dataSource(String url, Dialect dialect) {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(dialect.configureUrl(url, Duration.ofSeconds(5)));
    ds.setUsername(url.startsWith("jdbc:h2") ? "sa" : "root");
    ds.setPassword("");
    ds.setMaximumPoolSize(2);
    ds.setAutoCommit(false);
    return ds;
  }

  private static long insertJob(HikariDataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(JobSql.INSERT_JOB, Statement.RETURN_GENERATED_KEYS)) {
      ps.setString(1, "q");
      ps.setInt(2, 1);
      ps.setLong(3, 1L);
      ps.setLong(4, 1L);
      ps.setLong(5, 1L);
      ps.setInt(6, 2);
      ps.setInt(7, 2);
      ps.setString(8, "");
      ps.setBytes(9, new byte[] {1, 2, 3});
      ps.executeUpdate();
      List<Long> ids = new ArrayList<>();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        while (keys.next()) {
          ids.add(keys.getLong(1));
        }
      }
      c.commit();
      return ids.get(0);
    }
  }

  private static byte[] room(HikariDataSource ds, long id) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT claim_room FROM flipper_jobs WHERE local_id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        byte[] room = rs.getBytes(1);
        c.commit();
        return room;
      }
    }
  }
}
