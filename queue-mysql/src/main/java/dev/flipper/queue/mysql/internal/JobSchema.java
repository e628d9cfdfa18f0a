package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.Dialect;
import dev.flipper.jdbc.internal.SchemaMigrator;
import dev.flipper.jdbc.internal.SchemaMigrator.Migration;
import dev.flipper.queue.NewJob;
import java.util.List;

/**
 * The job tables of a queue shard and their migrations, applied by {@link SchemaMigrator} with the
 * version table {@code flipper_schema_version} (safe when several processes start at once). Tables:
 * {@code flipper_queues} (one row per queue) and {@code flipper_jobs} (every queue's jobs); see
 * docs/queue.md.
 */
public final class JobSchema {
  static final String VERSION_TABLE = "flipper_schema_version";

  private JobSchema() {}

  /** Creates or upgrades the job tables, versioned in {@code flipper_schema_version}. */
  public static SchemaMigrator migrator(Dialect dialect) {
    return new SchemaMigrator(dialect, VERSION_TABLE, "schema", migrations(dialect));
  }

  public static List<Migration> migrations(Dialect dialect) {
    String options = dialect.tableOptions();
    return List.of(
        new Migration(
            1,
            "queues and jobs",
            List.of(
                "CREATE TABLE IF NOT EXISTS flipper_queues ("
                    + " name VARCHAR(100) NOT NULL PRIMARY KEY,"
                    + " created_at BIGINT NOT NULL)"
                    + options,
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
                    // Claims, counts and scans: equality on the first three, range and order on
                    // run_after.
                    + " KEY flipper_jobs_queue (queue_name, priority, state, run_after),"
                    // The monitor: claim time-outs and garbage collection across all queues.
                    + " KEY flipper_jobs_monitor (state, updated_at))"
                    + options)),
        new Migration(
            2,
            "room for the claim in new job rows",
            List.of(
                // Existing rows get NULL; only rows inserted from now on carry the room (see
                // JobSql.CLAIM_ROOM_BYTES).
                // No IF NOT EXISTS (MySQL 8 lacks it): a re-run after a crash finds the column, see
                // Dialect#isDuplicateColumn.
                "ALTER TABLE flipper_jobs ADD COLUMN claim_room VARBINARY(255) NULL",
                "ALTER TABLE flipper_jobs ALTER COLUMN claim_room SET DEFAULT "
                    + JobSql.claimRoomLiteral())),
        new Migration(
            3,
            "paused queues",
            List.of(
                // NULL = running; else when the queue was paused (flipper queue-tool --mode pause,
                // the dashboard).
                "ALTER TABLE flipper_queues ADD COLUMN paused_at BIGINT NULL")),
        new Migration(
            4,
            "scan order index",
            dialect == Dialect.H2
                // H2's index entries do not order ties by local_id for the optimizer: a scan or
                // filtered page read
                // (and sorted) every job at its run_after. MariaDB's secondary index already ends
                // with the key.
                ? List.of(
                    "CREATE INDEX IF NOT EXISTS flipper_jobs_scan ON flipper_jobs"
                        + " (queue_name, priority, state, run_after, local_id)")
                : List.of()),
        new Migration(
            5,
            "claim lock index",
            dialect == Dialect.H2
                // A name for the primary key's order, for Dialect#jobsToLockById: H2 locks a
                // claim's candidates by
                // their ids through the queue index instead, reading every PENDING job of the queue
                // per claim.
                ? List.of(
                    "CREATE UNIQUE INDEX IF NOT EXISTS flipper_jobs_id ON flipper_jobs (local_id)")
                : List.of()),
        new Migration(
            6,
            "unique jobs",
            // The key a job holds (NULL: none, or released), and when it is released whatever the
            // job's state (0: when the job leaves PENDING/IN_PROGRESS). NULLs never collide in
            // the unique index, so jobs without a key cost one small index entry each.
            dialect == Dialect.H2
                ? List.of(
                    "ALTER TABLE flipper_jobs ADD COLUMN IF NOT EXISTS unique_key "
                        + dialect.asciiKeyColumn(NewJob.UNIQUE_KEY_MAX_CHARS)
                        + " NULL",
                    "ALTER TABLE flipper_jobs ADD COLUMN IF NOT EXISTS unique_until BIGINT NOT NULL"
                        + " DEFAULT 0",
                    "CREATE UNIQUE INDEX IF NOT EXISTS flipper_jobs_unique ON flipper_jobs"
                        + " (queue_name, unique_key)")
                // One statement, so a re-run after a crash finds all of it (a duplicate column).
                : List.of(
                    "ALTER TABLE flipper_jobs ADD COLUMN unique_key "
                        + dialect.asciiKeyColumn(NewJob.UNIQUE_KEY_MAX_CHARS)
                        + " NULL, ADD COLUMN unique_until BIGINT NOT NULL DEFAULT 0,"
                        + " ADD UNIQUE KEY flipper_jobs_unique (queue_name, unique_key)")));
  }
}
