package dev.flipper.queue.mysql.internal;

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
 * Brings a database's schema to the latest version: the job tables of a shard ({@link #SchemaMigrator(Dialect)}),
 * or any other list of migrations with its own version table (the token store's). Applied versions are rows of
 * the version table; row 0 is a lock: one connection holds it FOR UPDATE while a second one runs the DDL (DDL
 * commits implicitly on MySQL and H2, so the lock cannot live in the DDL's own transaction). Safe when several
 * processes start at once; needs two connections. Thread-safe.
 */
public final class SchemaMigrator {
  private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

  /**
   * One schema step; its statements must be safe to re-run after a crash half-way (IF NOT EXISTS; an ADD COLUMN
   * of a column that exists is skipped).
   */
  public record Migration(int version, String description, List<String> statements) {}

  private final String versionTable;
  private final String label;
  private final String tableOptions;
  private final List<Migration> migrations;

  /** The job tables of a queue shard, versioned in {@code flipper_schema_version}. */
  public SchemaMigrator(Dialect dialect) {
    this("flipper_schema_version", "schema", dialect.tableOptions(), migrations(dialect));
  }

  /**
   * @param versionTable where applied versions are recorded
   * @param label names the migrations in log lines, e.g. {@code token schema}
   * @param tableOptions appended to the version table's CREATE TABLE (the dialect's)
   */
  public SchemaMigrator(String versionTable, String label, String tableOptions, List<Migration> migrations) {
    this.versionTable = versionTable;
    this.label = label;
    this.tableOptions = tableOptions;
    this.migrations = List.copyOf(migrations);
  }

  public int latestVersion() {
    return migrations.get(migrations.size() - 1).version();
  }

  static List<Migration> migrations(Dialect dialect) {
    String options = dialect.tableOptions();
    return List.of(new Migration(1, "queues and jobs", List.of(
        "CREATE TABLE IF NOT EXISTS flipper_queues ("
            + " name VARCHAR(100) NOT NULL PRIMARY KEY,"
            + " created_at BIGINT NOT NULL)" + options,
        "CREATE TABLE IF NOT EXISTS flipper_jobs ("
            + " local_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
            + " queue_name VARCHAR(100) NOT NULL,"
            + " priority SMALLINT NOT NULL,"
            + " state TINYINT NOT NULL,"
            + " run_after BIGINT NOT NULL,"
            + " updated_at BIGINT NOT NULL,"
            + " created_at BIGINT NOT NULL,"
            + " attempts_allowed INT NOT NULL,"
            + " attempts_remaining INT NOT NULL,"
            + " claim_descriptor VARCHAR(1000) NULL,"
            + " claimed_by VARBINARY(1000) NULL,"
            + " custom_status VARCHAR(5000) NOT NULL DEFAULT '',"
            + " body MEDIUMBLOB NOT NULL,"
            // Claims, counts and scans: equality on the first three, range and order on run_after.
            + " KEY flipper_jobs_queue (queue_name, priority, state, run_after),"
            // The monitor: claim time-outs and garbage collection across all queues.
            + " KEY flipper_jobs_monitor (state, updated_at))" + options)),
        new Migration(2, "room for the claim in new job rows", List.of(
            // Existing rows get NULL; only rows inserted from now on carry the room (see JobSql.CLAIM_ROOM_BYTES).
            // No IF NOT EXISTS (MySQL 8 lacks it): a re-run after a crash finds the column, see isDuplicateColumn.
            "ALTER TABLE flipper_jobs ADD COLUMN claim_room VARBINARY(255) NULL",
            "ALTER TABLE flipper_jobs ALTER COLUMN claim_room SET DEFAULT " + JobSql.claimRoomLiteral())));
  }

  /** Applies every missing migration; returns the number applied. */
  public int migrate(DataSource dataSource) throws SQLException {
    try (Connection work = dataSource.getConnection()) {
      // Each read must see what other processes committed since: no snapshot kept across statements.
      work.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      work.setAutoCommit(false);
      try (Statement st = work.createStatement()) {
        st.execute("CREATE TABLE IF NOT EXISTS " + versionTable + " ("
            + " version INT NOT NULL PRIMARY KEY,"
            + " description VARCHAR(200) NOT NULL,"
            + " applied_at BIGINT NOT NULL)" + tableOptions);
        st.execute("INSERT IGNORE INTO " + versionTable + " (version, description, applied_at)"
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
          st.executeQuery("SELECT version FROM " + versionTable + " WHERE version = 0 FOR UPDATE").close();
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
    Set<Integer> applied = appliedVersions(work); // read again under the lock: another process may have won
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
            if (!isDuplicateColumn(e)) {
              throw e;
            }
            log.info("{} migration {}: column already there (an earlier run stopped half-way): {}", label,
                migration.version(), sql);
          }
        }
      }
      try (PreparedStatement ps = work.prepareStatement(
          "INSERT INTO " + versionTable + " (version, description, applied_at) VALUES (?, ?, ?)")) {
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
      log.warn("{} version {} is newer than this release knows ({}); running anyway", label, newest,
          latestVersion());
    }
    return count;
  }

  /** ADD COLUMN of a column that exists: MySQL/MariaDB error 1060, H2 error 42121. */
  private static boolean isDuplicateColumn(SQLException e) {
    return e.getErrorCode() == 1060 || e.getErrorCode() == 42121;
  }

  private Set<Integer> versions() {
    Set<Integer> versions = new HashSet<>();
    migrations.forEach(m -> versions.add(m.version()));
    return versions;
  }

  private Set<Integer> appliedVersions(Connection c) throws SQLException {
    Set<Integer> applied = new HashSet<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT version FROM " + versionTable + " WHERE version > 0")) {
      while (rs.next()) {
        applied.add(rs.getInt(1));
      }
    }
    return applied;
  }
}
