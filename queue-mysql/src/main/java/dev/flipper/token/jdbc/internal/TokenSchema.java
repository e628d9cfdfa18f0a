package dev.flipper.token.jdbc.internal;

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
 * Creates and upgrades the token tables. Applied versions are rows of {@code flipper_token_schema}; row 0 is a
 * lock that one connection holds FOR UPDATE while a second one runs the DDL (DDL commits implicitly on MySQL
 * and H2). Safe when several masters start at once. Thread-safe.
 *
 * <p>Tables (names are visible ASCII, so a binary collation indexes all 1024 characters; see docs/tokens.md):
 * <ul>
 *   <li>{@code flipper_tokens_active}: the master's tokens, primary key {@code name}: a prefix query is one
 *       index range. {@code leased_until} (derived: the lease end of an owned token, else 0) and the covering
 *       index {@code (name, leased_until, priority)} let a claim find candidates without reading whole rows;
 *   <li>{@code flipper_tokens_archived}: archived tokens, primary key {@code (name, version)} since a name may
 *       be archived more than once, plus {@code archived_at} (epoch ms);
 *   <li>{@code flipper_token_versions}: one row ({@code id = 1}) holding the highest version ever issued.
 * </ul>
 */
public final class TokenSchema {
  public static final String ACTIVE = "flipper_tokens_active";
  public static final String ARCHIVED = "flipper_tokens_archived";
  public static final String VERSIONS = "flipper_token_versions";
  static final String SCHEMA = "flipper_token_schema";
  /** The lease end of an owned token ({@link dev.flipper.token.Token#isOwned}), else 0. */
  static final String LEASED_UNTIL = "CASE WHEN owner IS NOT NULL AND CHAR_LENGTH(owner) > 0"
      + " AND expiration_time IS NOT NULL AND expiration_time <> 0 THEN expiration_time ELSE 0 END";

  private static final Logger log = LoggerFactory.getLogger(TokenSchema.class);

  /** One schema step; its statements must be safe to re-run after a crash half-way. */
  record Migration(int version, String description, List<String> statements) {}

  private final TokenDialect dialect;
  private final List<Migration> migrations;

  public TokenSchema(TokenDialect dialect) {
    this.dialect = dialect;
    this.migrations = migrations(dialect);
  }

  static List<Migration> migrations(TokenDialect dialect) {
    String name = dialect.nameColumn();
    String columns = " name " + name + " NOT NULL,"
        + " version BIGINT NOT NULL,"
        + " owner VARCHAR(" + TokenDialect.NAME_LENGTH + ") NULL,"
        + " expiration_time BIGINT NULL,"
        + " priority DOUBLE NOT NULL DEFAULT 0,"
        + " data LONGTEXT NULL,";
    return List.of(new Migration(1, "active and archived tokens, version counter", List.of(
        "CREATE TABLE IF NOT EXISTS " + ACTIVE + " (" + columns
            // Generated: the lease end if the token is owned, else 0, so that "claimable at t" is
            // leased_until <= t and claims read the narrow index below instead of whole rows. Generated, not
            // written, so hand edits of owner or expiration_time in SQL keep it right.
            + " leased_until BIGINT " + dialect.generated(LEASED_UNTIL) + ","
            + " PRIMARY KEY (name),"
            + " KEY flipper_tokens_claim (name, leased_until, priority))" + dialect.tableOptions(),
        "CREATE TABLE IF NOT EXISTS " + ARCHIVED + " (" + columns
            + " archived_at BIGINT NOT NULL,"
            + " PRIMARY KEY (name, version))" + dialect.tableOptions(),
        "CREATE TABLE IF NOT EXISTS " + VERSIONS + " ("
            + " id INT NOT NULL PRIMARY KEY,"
            + " last_version BIGINT NOT NULL)" + dialect.tableOptions(),
        "INSERT IGNORE INTO " + VERSIONS + " (id, last_version) VALUES (1, 0)")));
  }

  public int latestVersion() {
    return migrations.get(migrations.size() - 1).version();
  }

  /** Applies every missing migration; returns how many. */
  public int migrate(DataSource dataSource) throws SQLException {
    try (Connection work = dataSource.getConnection()) {
      work.setAutoCommit(false);
      try (Statement st = work.createStatement()) {
        st.execute("CREATE TABLE IF NOT EXISTS " + SCHEMA + " ("
            + " version INT NOT NULL PRIMARY KEY,"
            + " description VARCHAR(200) NOT NULL,"
            + " applied_at BIGINT NOT NULL)" + dialect.tableOptions());
        st.execute("INSERT IGNORE INTO " + SCHEMA + " (version, description, applied_at) VALUES (0, 'migration lock', 0)");
      }
      work.commit();
      if (applied(work).containsAll(versions())) {
        work.commit();
        return 0;
      }
      try (Connection lock = dataSource.getConnection()) {
        lock.setAutoCommit(false);
        try (Statement st = lock.createStatement()) {
          st.executeQuery("SELECT version FROM " + SCHEMA + " WHERE version = 0 FOR UPDATE").close();
          int count = applyMissing(work);
          lock.commit();
          return count;
        } catch (SQLException | RuntimeException e) {
          lock.rollback();
          throw e;
        }
      }
    }
  }

  private int applyMissing(Connection work) throws SQLException {
    Set<Integer> applied = applied(work); // again, under the lock: another master may have won
    int count = 0;
    for (Migration migration : migrations) {
      if (applied.contains(migration.version())) {
        continue;
      }
      try (Statement st = work.createStatement()) {
        for (String sql : migration.statements()) {
          st.execute(sql);
        }
      }
      try (PreparedStatement ps = work.prepareStatement(
          "INSERT INTO " + SCHEMA + " (version, description, applied_at) VALUES (?, ?, ?)")) {
        ps.setInt(1, migration.version());
        ps.setString(2, migration.description());
        ps.setLong(3, System.currentTimeMillis());
        ps.executeUpdate();
      }
      work.commit();
      log.info("applied token schema migration {} ({})", migration.version(), migration.description());
      count++;
    }
    int newest = applied.stream().mapToInt(Integer::intValue).max().orElse(0);
    if (newest > latestVersion()) {
      log.warn("token schema version {} is newer than this release knows ({}); running anyway", newest,
          latestVersion());
    }
    return count;
  }

  private Set<Integer> versions() {
    Set<Integer> versions = new HashSet<>();
    migrations.forEach(m -> versions.add(m.version()));
    return versions;
  }

  private static Set<Integer> applied(Connection c) throws SQLException {
    Set<Integer> applied = new HashSet<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT version FROM " + SCHEMA + " WHERE version > 0")) {
      while (rs.next()) {
        applied.add(rs.getInt(1));
      }
    }
    return applied;
  }
}
