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
 *       issued;
 *   <li>{@code flipper_runs} and {@code flipper_job_runs} (migration 2): the run history, one row
 *       per archived instance and per job execution, see {@link RunHistorySql}. Every order a page
 *       is read in is a stored (generated) key read ascending, then the names: {@code newest_key}
 *       (minus the start), {@code start_ms}, {@code longest_key} and {@code shortest_key} (minus or
 *       plus the duration, runs without an end at the maximum). So each order is one ascending
 *       index on any MariaDB, MySQL and H2, where a descending start with ascending names would
 *       need descending indexes (MariaDB 10.8+) or a sort of every matching run.
 * </ul>
 */
public final class TokenSchema {
  public static final String ACTIVE = "flipper_tokens_active";
  public static final String ARCHIVED = "flipper_tokens_archived";
  public static final String VERSIONS = "flipper_token_versions";
  public static final String RUNS = "flipper_runs";
  public static final String JOB_RUNS = "flipper_job_runs";

  /**
   * The longest workflow, instance or job name the run history keeps: the job index holds all three
   * and a status within InnoDB's 3072 key bytes, and a job's token name (at most 1024 characters)
   * holds all three.
   */
  public static final int HISTORY_NAME_LENGTH = 512;

  /** The longest status and trigger the run history keeps. */
  public static final int HISTORY_LABEL_LENGTH = 64;

  /** The longest worker id and host name the run history keeps (as a token owner). */
  public static final int HISTORY_WORKER_LENGTH = TokenNames.MAX_NAME_LENGTH;

  /** A run without an end sorts after every ended run by duration, both ways. */
  static final String UNENDED = "9223372036854775807";

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
                "INSERT IGNORE INTO " + VERSIONS + " (id, last_version) VALUES (1, 0)")),
        new Migration(2, "run history: runs and job executions", historyTables(dialect)));
  }

  private static List<String> historyTables(Dialect dialect) {
    String name = dialect.asciiKeyColumn(HISTORY_NAME_LENGTH) + " NOT NULL,";
    String label = " VARCHAR(" + HISTORY_LABEL_LENGTH + ") NOT NULL,";
    String worker = " VARCHAR(" + HISTORY_WORKER_LENGTH + ") NOT NULL,";
    return List.of(
        "CREATE TABLE IF NOT EXISTS "
            + RUNS
            + " ("
            + " workflow "
            + name
            + " instance "
            + name
            + " status"
            + label
            + " started_by"
            + label
            + " start_ms BIGINT NOT NULL,"
            + " end_ms BIGINT NULL,"
            + " params LONGTEXT NOT NULL," // JSON object of strings, see JsonStrings
            + " failed_jobs LONGTEXT NOT NULL," // JSON array of strings
            + " search_text LONGTEXT NOT NULL," // lower-cased, see RunQuery.searchText
            + " duration_ms BIGINT "
            + dialect.generated("end_ms - start_ms")
            + ","
            + " newest_key BIGINT "
            + dialect.generated("-start_ms")
            + ","
            + " longest_key BIGINT "
            + dialect.generated(
                "CASE WHEN end_ms IS NULL THEN " + UNENDED + " ELSE start_ms - end_ms END")
            + ","
            + " shortest_key BIGINT "
            + dialect.generated(
                "CASE WHEN end_ms IS NULL THEN " + UNENDED + " ELSE end_ms - start_ms END")
            + ","
            + " PRIMARY KEY (workflow, instance),"
            // A workflow's runs newest first, also within a start range; then oldest, by duration.
            // status and started_by let filters on them, and their counts, read no row.
            + " KEY flipper_runs_newest (workflow, newest_key, instance, status, started_by),"
            + " KEY flipper_runs_status (workflow, status, newest_key, instance),"
            + " KEY flipper_runs_oldest (workflow, start_ms, instance),"
            + " KEY flipper_runs_longest (workflow, longest_key, instance),"
            + " KEY flipper_runs_shortest (workflow, shortest_key, instance),"
            // Every workflow's runs (the UI's front page), in each order.
            + " KEY flipper_runs_all_newest (newest_key, workflow, instance, status, started_by),"
            + " KEY flipper_runs_all_oldest (start_ms, workflow, instance),"
            + " KEY flipper_runs_all_longest (longest_key, workflow, instance),"
            + " KEY flipper_runs_all_shortest (shortest_key, workflow, instance))"
            + dialect.tableOptions(),
        "CREATE TABLE IF NOT EXISTS "
            + JOB_RUNS
            + " ("
            + " workflow "
            + name
            + " instance "
            + name
            + " job "
            + name
            + " execution INT NOT NULL,"
            + " attempt INT NOT NULL,"
            + " status"
            + label
            + " start_ms BIGINT NOT NULL,"
            + " end_ms BIGINT NULL,"
            + " exit_code INT NULL,"
            + " worker"
            + worker
            + " host"
            + worker
            + " end_reason LONGTEXT NULL,"
            + " logs LONGTEXT NOT NULL," // JSON object of strings
            + " newest_key BIGINT "
            + dialect.generated("-start_ms")
            + ","
            // An instance's executions (a grid of recent runs reads a few hundred instances).
            + " PRIMARY KEY (workflow, instance, job, execution),"
            // One job's executions across runs, newest first; with the status, its filter and count
            // read no row (a scan of 40,000 rows took 700 ms, of the index 10 ms).
            + " KEY flipper_job_runs_job (workflow, job, newest_key, instance, execution, status))"
            + dialect.tableOptions());
  }
}
