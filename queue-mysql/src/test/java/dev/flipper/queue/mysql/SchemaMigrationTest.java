package dev.flipper.queue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.flipper.jdbc.Dialect;
import dev.flipper.queue.mysql.internal.JobSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migrations are applied once, whether a process starts twice or several start at the same moment.
 */
class SchemaMigrationTest {
  private final TestDatabases databases = new TestDatabases();

  @TempDir Path dir;

  @AfterEach
  void drop() {
    databases.close();
  }

  @Test
  @Tag("mariadb")
  void migratingTwiceAppliesNothingTheSecondTimeOnMariaDb() throws Exception {
    assertIdempotent(databases.newMariaDb());
  }

  @Test
  void migratingTwiceAppliesNothingTheSecondTimeOnH2() throws Exception {
    assertIdempotent(TestDatabases.h2Url(dir, "idem"));
  }

  @Test
  @Tag("mariadb")
  void concurrentStartsMigrateExactlyOnceOnMariaDb() throws Exception {
    assertConcurrentStartsMigrateOnce(databases.newMariaDb());
  }

  @Test
  void concurrentStartsMigrateExactlyOnceOnH2() throws Exception {
    assertConcurrentStartsMigrateOnce(TestDatabases.h2Url(dir, "concurrent"));
  }

  private static void assertIdempotent(String url) throws Exception {
    try (HikariDataSource ds = dataSource(url)) {
      var migrator = JobSchema.migrator(Dialect.forUrl(url));
      assertThat(migrator.migrate(ds)).isEqualTo(migrator.latestVersion());
      assertThat(migrator.migrate(ds)).isZero();
      assertThat(appliedVersions(ds)).containsExactly(1, 2, 3, 4, 5, 6);
    }
  }

  /**
   * Six "processes" (own pools) migrate one empty database at once; each version is applied once.
   */
  private static void assertConcurrentStartsMigrateOnce(String url) throws Exception {
    int starts = 6;
    CyclicBarrier barrier = new CyclicBarrier(starts);
    ExecutorService executor = Executors.newFixedThreadPool(starts);
    List<HikariDataSource> pools = new ArrayList<>();
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < starts; i++) {
        HikariDataSource ds = dataSource(url);
        pools.add(ds);
        Callable<Integer> start =
            () -> {
              barrier.await();
              return JobSchema.migrator(Dialect.forUrl(url)).migrate(ds);
            };
        results.add(executor.submit(start));
      }
      int applied = 0;
      for (Future<Integer> result : results) {
        applied += result.get();
      }
      assertThat(applied).isEqualTo(JobSchema.migrator(Dialect.forUrl(url)).latestVersion());
      assertThat(appliedVersions(pools.get(0))).containsExactly(1, 2, 3, 4, 5, 6);
    } finally {
      executor.shutdownNow();
      pools.forEach(HikariDataSource::close);
    }
  }

  private static HikariDataSource dataSource(String url) {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(Dialect.forUrl(url).configureUrl(url, java.time.Duration.ofSeconds(5)));
    ds.setUsername(url.startsWith("jdbc:h2") ? "sa" : "root");
    ds.setPassword("");
    ds.setMaximumPoolSize(2);
    ds.setAutoCommit(false);
    return ds;
  }

  private static List<Integer> appliedVersions(HikariDataSource ds) throws SQLException {
    List<Integer> versions = new ArrayList<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT version FROM flipper_schema_version WHERE version > 0 ORDER BY version")) {
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
      c.commit();
    }
    return versions;
  }
}
