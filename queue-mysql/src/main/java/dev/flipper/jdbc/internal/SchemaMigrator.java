package dev.flipper.jdbc.internal;

import dev.flipper.jdbc.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a database's schema to the latest version: a list of migrations with its own version table
 * (the job tables of a queue shard, the token tables). Applied versions are rows of the version
 * table; row 0 is a lock: one connection holds it FOR UPDATE while a second one runs the DDL (DDL
 * commits implicitly on MySQL and H2, so the lock cannot live in the DDL's own transaction). Safe
 * when several processes start at once; needs two connections. Thread-safe.
 */
public final class SchemaMigrator {
  private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

  /**
   * One schema step; its statements must be safe to re-run after a crash half-way (IF NOT EXISTS;
   * an ADD COLUMN of a column that exists is skipped).
   */
  public record Migration(int version, String description, List<String> statements) {}

  private final Dialect dialect;
  private final String versionTable;
  private final String label;
  private final List<Migration> migrations;

  /**
   * @param versionTable where applied versions are recorded
   * @param label names the migrations in log lines, e.g. {@code token schema}
   */
  public SchemaMigrator(
      Dialect dialect, String versionTable, String label, List<Migration> migrations) {
    this.dialect = dialect;
    this.versionTable = versionTable;
    this.label = label;
    this.migrations = List.copyOf(migrations);
  }

  public int latestVersion() {
    return migrations.get(migrations.size() - 1).version();
  }

  /** Applies every missing migration; returns the number applied. */
  public int migrate(DataSource dataSource) throws SQLException {
    try (Connection work = dataSource.getConnection()) {
      // Each read must see what other processes committed since: no snapshot kept across
      // statements.
      work.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      work.setAutoCommit(false);
      try (Statement st = work.createStatement()) {
        st.execute(
            "CREATE TABLE IF NOT EXISTS "
                + versionTable
                + " ("
                + " version INT NOT NULL PRIMARY KEY,"
                + " description VARCHAR(200) NOT NULL,"
                + " applied_at BIGINT NOT NULL)"
                + dialect.tableOptions());
        st.execute(
            "INSERT IGNORE INTO "
                + versionTable
                + " (version, description, applied_at)"
                + " VALUES (0, 'migration lock', 0)");
      }
      work.commit();
      if (appliedVersions(work).containsAll(versions())) {
        work.commit();
        return 0;
      }
      try (Connection lock = dataSource.getConnection()) {
        lock.setAutoCommit(false);
        try (Statement st = lock.createStatement()) {
          st.executeQuery("SELECT version FROM " + versionTable + " WHERE version = 0 FOR UPDATE")
              .close();
          int applied = applyMissing(work);
          lock.commit();
          return applied;
        } catch (SQLException | RuntimeException e) {
          lock.rollback();
          throw e;
        }
      }
    }
  }

  private int applyMissing(Connection work) throws SQLException {
    Set<Integer> applied =
        appliedVersions(work); // read again under the lock: another process may have won
    int count = 0;
    for (Migration migration : migrations) {
      if (applied.contains(migration.version())) {
        continue;
      }
      try (Statement st = work.createStatement()) {
        for (String sql : migration.statements()) {
          try {
            st.execute(sql);
          } catch (SQLException e) {
            if (!dialect.isDuplicateColumn(e)) {
              throw e;
            }
            log.info(
                "{} migration {}: column already there (an earlier run stopped half-way): {}",
                label,
                migration.version(),
                sql);
          }
        }
      }
      try (PreparedStatement ps =
          work.prepareStatement(
              "INSERT INTO "
                  + versionTable
                  + " (version, description, applied_at) VALUES (?, ?, ?)")) {
        ps.setInt(1, migration.version());
        ps.setString(2, migration.description());
        ps.setLong(3, System.currentTimeMillis());
        ps.executeUpdate();
      }
      work.commit();
      log.info("applied {} migration {} ({})", label, migration.version(), migration.description());
      count++;
    }
    int newest = applied.stream().mapToInt(Integer::intValue).max().orElse(0);
    if (newest > latestVersion()) {
      log.warn(
          "{} version {} is newer than this release knows ({}); running anyway",
          label,
          newest,
          latestVersion());
    }
    return count;
  }

  private Set<Integer> versions() {
    Set<Integer> versions = new HashSet<>();
    migrations.forEach(m -> versions.add(m.version()));
    return versions;
  }

  private Set<Integer> appliedVersions(Connection c) throws SQLException {
    Set<Integer> applied = new HashSet<>();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT version FROM " + versionTable + " WHERE version > 0")) {
      while (rs.next()) {
        applied.add(rs.getInt(1));
      }
    }
    return applied;
  }
}
