package dev.flipper.token.jdbc.internal;

import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.internal.SchemaMigrator;
import dev.flipper.jdbc.internal.SchemaMigrator.Migration;
import dev.flipper.token.TokenNames;
import java.util.List;

/**
 * The token tables and their migrations, applied by {@link SchemaMigrator} with the version table
 * {@code flipper_token_schema} (safe when several masters start at once).
 *
 * <p>Tables (names are visible ASCII, so a binary collation indexes all 1024 characters; see
 * docs/tokens.md):
 *
 * <ul>
 *   <li>{@code flipper_tokens_active}: the master's tokens, primary key {@code name}: a prefix
 *       query is one index range. {@code leased_until} (derived: the lease end of an owned token,
 *       else 0) and the covering index {@code (name, leased_until, priority)} let a claim find
 *       candidates without reading whole rows;
 *   <li>{@code flipper_tokens_archived}: archived tokens, primary key {@code (name, version)} since
 *       a name may be archived more than once, plus {@code archived_at} (epoch ms);
 *   <li>{@code flipper_token_versions}: one row ({@code id = 1}) holding the highest version ever
 *       issued.
 * </ul>
 */
public final class TokenSchema {
  public static final String ACTIVE = "flipper_tokens_active";
  public static final String ARCHIVED = "flipper_tokens_archived";
  public static final String VERSIONS = "flipper_token_versions";
  static final String SCHEMA = "flipper_token_schema";

  /** The lease end of an owned token ({@link dev.flipper.token.Token#isOwned}), else 0. */
  static final String LEASED_UNTIL =
      "CASE WHEN owner IS NOT NULL AND CHAR_LENGTH(owner) > 0"
          + " AND expiration_time IS NOT NULL AND expiration_time <> 0 THEN expiration_time ELSE 0 END";

  private TokenSchema() {}

  /** Creates or upgrades the token tables, versioned in {@code flipper_token_schema}. */
  public static SchemaMigrator migrator(Dialect dialect) {
    return new SchemaMigrator(dialect, SCHEMA, "token schema", migrations(dialect));
  }

  static List<Migration> migrations(Dialect dialect) {
    String name = dialect.asciiKeyColumn(TokenNames.MAX_NAME_LENGTH);
    String columns =
        " name "
            + name
            + " NOT NULL,"
            + " version BIGINT NOT NULL,"
            + " owner VARCHAR("
            + TokenNames.MAX_NAME_LENGTH
            + ") NULL,"
            + " expiration_time BIGINT NULL,"
            + " priority DOUBLE NOT NULL DEFAULT 0,"
            + " data LONGTEXT NULL,";
    return List.of(
        new Migration(
            1,
            "active and archived tokens, version counter",
            List.of(
                "CREATE TABLE IF NOT EXISTS "
                    + ACTIVE
                    + " ("
                    + columns
                    // Generated: the lease end if the token is owned, else 0, so that "claimable at
                    // t" is
                    // leased_until <= t and claims read the narrow index below instead of whole
                    // rows. Generated, not
                    // written, so hand edits of owner or expiration_time in SQL keep it right.
                    + " leased_until BIGINT "
                    + dialect.generated(LEASED_UNTIL)
                    + ","
                    + " PRIMARY KEY (name),"
                    + " KEY flipper_tokens_claim (name, leased_until, priority))"
                    + dialect.tableOptions(),
                "CREATE TABLE IF NOT EXISTS "
                    + ARCHIVED
                    + " ("
                    + columns
                    + " archived_at BIGINT NOT NULL,"
                    + " PRIMARY KEY (name, version))"
                    + dialect.tableOptions(),
                "CREATE TABLE IF NOT EXISTS "
                    + VERSIONS
                    + " ("
                    + " id INT NOT NULL PRIMARY KEY,"
                    + " last_version BIGINT NOT NULL)"
                    + dialect.tableOptions(),
                "INSERT IGNORE INTO " + VERSIONS + " (id, last_version) VALUES (1, 0)")));
  }
}
