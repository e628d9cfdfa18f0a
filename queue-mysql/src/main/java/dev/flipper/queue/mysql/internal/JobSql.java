package dev.flipper.queue.mysql.internal;

import dev.flipper.jdbc.Dialect;
import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.ShardStore;
import java.util.List;

/**
 * The statements on the hot path (enqueue, claim, ack), shared by {@link JdbcShardStore} and the
 * benchmark's raw-JDBC ceiling so that both issue exactly the same SQL. Every value is a parameter.
 */
public final class JobSql {
  static final int PENDING = JobState.PENDING.code();
  static final int IN_PROGRESS = JobState.IN_PROGRESS.code();
  static final int SUCCEEDED = JobState.SUCCEEDED.code();
  static final int FAILED = JobState.FAILED.code();

  /** Reads (and with the dialect's lock suffix, holds) the queue's row: 1 parameter, the queue. */
  public static final String QUEUE_ROW = "SELECT name FROM flipper_queues WHERE name = ?";

  /**
   * Inserts one PENDING job; the driver rewrites a batch into one multi-row INSERT. Parameters:
   * queue, priority, run_after, updated_at, created_at, attempts_allowed, attempts_remaining,
   * custom_status, body.
   */
  public static final String INSERT_JOB =
      "INSERT INTO flipper_jobs (queue_name, priority, state, run_after,"
          + " updated_at, created_at, attempts_allowed, attempts_remaining, custom_status, body)"
          + " VALUES (?, ?, "
          + PENDING
          + ", ?, ?, ?, ?, ?, ?, ?)";

  /**
   * Inserts one PENDING job if its queue exists, holding the queue row with the dialect's lock
   * suffix appended (as {@link #QUEUE_ROW} does): one statement instead of two for a single job.
   * Parameters as {@link #INSERT_JOB}, then the queue again; 0 rows inserted means there is no such
   * queue.
   */
  public static final String INSERT_JOB_IF_QUEUE =
      "INSERT INTO flipper_jobs (queue_name, priority, state, run_after,"
          + " updated_at, created_at, attempts_allowed, attempts_remaining, custom_status, body)"
          + " SELECT ?, ?, "
          + PENDING
          + ", ?, ?, ?, ?, ?, ?, ? FROM flipper_queues WHERE name = ?";

  /**
   * Inserts one PENDING job holding a unique key if its queue exists (dialect's lock suffix
   * appended): the parameters of {@link #INSERT_JOB}, then the key, its release instant (0: while
   * active), then the queue. The unique index on (queue_name, unique_key) refuses a second holder.
   */
  public static final String INSERT_KEYED_JOB_IF_QUEUE =
      "INSERT INTO flipper_jobs (queue_name, priority, state, run_after, updated_at, created_at,"
          + " attempts_allowed, attempts_remaining, custom_status, body, unique_key, unique_until)"
          + " SELECT ?, ?, "
          + PENDING
          + ", ?, ?, ?, ?, ?, ?, ?, ?, ? FROM flipper_queues WHERE name = ?";

  /** The job holding a key: queue, key. */
  static final String KEY_HOLDER =
      "SELECT priority, local_id FROM flipper_jobs WHERE queue_name = ? AND unique_key = ?";

  /** Releases a key whose window has ended: queue, key, now. */
  static final String RELEASE_ENDED_WINDOW =
      "UPDATE flipper_jobs SET unique_key = NULL"
          + " WHERE queue_name = ? AND unique_key = ? AND unique_until > 0 AND unique_until <= ?";

  /**
   * A SET clause for a job that leaves PENDING/IN_PROGRESS for good: it releases its key unless the
   * key has a window.
   */
  static final String RELEASE_KEY = "unique_key = CASE WHEN unique_until > 0 THEN unique_key END";

  /** Due PENDING jobs of one queue and priority: queue, priority, now. */
  static final String DUE =
      "queue_name = ? AND priority = ? AND state = " + PENDING + " AND run_after <= ?";

  /**
   * Appended to {@link #SELECT_DUE} to claim: concurrent claimers take disjoint rows without
   * waiting.
   */
  public static final String SKIP_LOCKED = " FOR UPDATE SKIP LOCKED";

  /**
   * Bytes every new job row reserves (the default of its {@code claim_room} column) for the claim's
   * descriptor and source, and the claim gives back (sets it NULL). InnoDB updates a row where it
   * lies only if the row does not grow; a claim that grows freshly inserted rows (pages filled up
   * to 15/16) splits and reorganizes pages, which cost MariaDB about a fifth of its CPU time in the
   * full cycle of JdbcQueueBenchmark. 64 bytes cover a descriptor and source of about 60 characters
   * together; a longer claim grows the row by the difference, which the page's free space usually
   * absorbs.
   */
  static final int CLAIM_ROOM_BYTES = 64;

  private static final String CLAIM_SET =
      " SET state = "
          + IN_PROGRESS
          + ", claim_descriptor = ?, claimed_by = ?, updated_at = ?, claim_room = NULL WHERE "
          + JdbcShardStore.LOCKED_IDS;

  static final String APPEND_STATUS =
      "custom_status = SUBSTRING(CONCAT(custom_status, ?), 1, "
          + ShardStore.CUSTOM_STATUS_MAX_CHARS
          + ")";

  private JobSql() {}

  /** Due PENDING jobs, earliest first, with every column. Parameters: queue, priority, now. */
  static RowSelect due(Dialect dialect, Object... params) {
    return dueWhere(dialect, "", params);
  }

  /**
   * Due PENDING jobs with one more condition, from the table a claim reads ({@link
   * Dialect#jobsToClaim}).
   */
  private static RowSelect dueWhere(Dialect dialect, String andCondition, Object... params) {
    return RowSelect.of(
            JobRows.COLUMNS_WITH_BODY, DUE + andCondition, dialect.queueIndexOrder(false), params)
        .from(dialect.jobsToClaim());
  }

  /**
   * Jobs of one queue, priority and state, due by {@code now} (or after it for {@code future}), in
   * scan order (run_after, local_id descending) strictly after the bound: two selects, read in turn
   * until the page is full. The first reads the bound's own run_after (smaller ids), the second
   * every earlier run_after. One select with {@code run_after < ? OR (run_after = ? AND local_id <
   * ?)} made MariaDB read, from the top, every job at the bound's run_after again for each page:
   * quadratic when many jobs share one run_after (100,000 jobs enqueued together took 97 s to count
   * by body). Each select here is one index range, read in order through {@link
   * Dialect#jobsByQueueIndex}.
   */
  static List<RowSelect> page(
      Dialect dialect,
      String columns,
      String queue,
      int priority,
      int state,
      boolean future,
      long now,
      dev.flipper.queue.spi.ScanBound bound) {
    String table = dialect.jobsByQueueIndex();
    String order = dialect.queueIndexOrder(true);
    String jobs = "queue_name = ? AND priority = ? AND state = ?";
    boolean start = bound.equals(dev.flipper.queue.spi.ScanBound.START);
    // One upper bound for the earlier run_afters: with two, H2 ranged on the wider one.
    long below = start ? Long.MAX_VALUE : bound.runAfterMillis() - 1;
    RowSelect earlier =
        future
            ? RowSelect.of(
                columns,
                jobs + " AND run_after > ? AND run_after <= ?",
                order,
                queue,
                priority,
                state,
                now,
                below)
            : RowSelect.of(
                columns,
                jobs + " AND run_after <= ?",
                order,
                queue,
                priority,
                state,
                Math.min(now, below));
    boolean boundInRange = future ? bound.runAfterMillis() > now : bound.runAfterMillis() <= now;
    List<RowSelect> parts = new java.util.ArrayList<>(2);
    if (!start && boundInRange) {
      parts.add(
          RowSelect.of(
                  columns,
                  jobs + " AND run_after = ? AND local_id < ?",
                  order,
                  queue,
                  priority,
                  state,
                  bound.runAfterMillis(),
                  bound.localId())
              .from(table));
    }
    if (start || bound.runAfterMillis() != Long.MIN_VALUE) {
      parts.add(earlier.from(table));
    }
    return parts;
  }

  /** Jobs of one queue, priority and state, oldest run-after first. */
  static RowSelect inState(Dialect dialect, String queue, int priority, int state) {
    return RowSelect.of(
        "local_id",
        "queue_name = ? AND priority = ? AND state = ?",
        dialect.queueIndexOrder(false),
        queue,
        priority,
        state);
  }

  /**
   * Jobs of every queue in one state, last changed before a time, oldest first: the monitor's
   * index.
   */
  static RowSelect updatedBefore(String columns, int state, long before) {
    return RowSelect.of(
        columns, "state = ? AND updated_at < ?", "state, updated_at", state, before);
  }

  /**
   * Due PENDING jobs from a run_after on (see {@link ClaimFloors}): queue, priority, now, floor.
   */
  static RowSelect dueFrom(Dialect dialect, Object... params) {
    return dueWhere(dialect, " AND run_after >= ?", params);
  }

  /**
   * Due PENDING jobs before a run_after (below the {@link ClaimFloors floor}): queue, priority,
   * now, floor.
   */
  static RowSelect dueBelow(Dialect dialect, Object... params) {
    return dueWhere(dialect, " AND run_after < ?", params);
  }

  /**
   * {@link #due}, {@link #dueFrom} or {@link #dueBelow}, as a {@link ClaimFloors.DueScan} asks
   * (nulls: no bound).
   */
  static RowSelect dueBand(
      Dialect dialect, String queue, int priority, long now, Long from, Long below) {
    if (from != null) {
      return dueFrom(dialect, queue, priority, now, from);
    }
    return below != null
        ? dueBelow(dialect, queue, priority, now, below)
        : due(dialect, queue, priority, now);
  }

  /**
   * The statement of {@link #due}: queue, priority, now, limit; add {@link #SKIP_LOCKED} to claim.
   */
  public static String selectDue(Dialect dialect) {
    return due(dialect).sql("");
  }

  /**
   * The statement of {@link #dueFrom}: queue, priority, now, floor, limit; add {@link #SKIP_LOCKED}
   * to claim.
   */
  public static String selectDueFrom(Dialect dialect) {
    return dueFrom(dialect).sql("");
  }

  /**
   * The statement of {@link #dueBelow}: queue, priority, now, floor, limit; add {@link
   * #SKIP_LOCKED} to claim.
   */
  public static String selectDueBelow(Dialect dialect) {
    return dueBelow(dialect).sql("");
  }

  /** The SQL literal of {@link #CLAIM_ROOM_BYTES} zero bytes (MySQL and H2 both read X'...'). */
  static String claimRoomLiteral() {
    return "X'" + "00".repeat(CLAIM_ROOM_BYTES) + "'";
  }

  /**
   * Marks selected jobs claimed: descriptor, source bytes, now, then the ids (see {@link IdLists}).
   * By primary key: on a small table MariaDB otherwise reads (and locks) every row of the table
   * instead.
   */
  public static String claim(Dialect dialect, int ids) {
    return "UPDATE " + dialect.jobsByPrimaryKey() + CLAIM_SET + IdLists.placeholders(ids);
  }

  /**
   * IN_PROGRESS to SUCCEEDED: now, [append text,] queue, priority, then the ids (see {@link
   * IdLists}).
   */
  public static String ackSucceeded(Dialect dialect, int ids, boolean appendStatus) {
    return "UPDATE "
        + dialect.jobsByPrimaryKey()
        + " SET state = "
        + SUCCEEDED
        + ", updated_at = ?, "
        + RELEASE_KEY
        + (appendStatus ? ", " + APPEND_STATUS : "")
        + " WHERE queue_name = ? AND priority = ? AND state = "
        + IN_PROGRESS
        + " AND local_id IN "
        + IdLists.placeholders(ids);
  }
}
