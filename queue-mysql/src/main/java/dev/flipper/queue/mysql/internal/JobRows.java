package dev.flipper.queue.mysql.internal;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.StoredJob;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reads {@code flipper_jobs} rows selected with {@link #COLUMNS}. Stateless. */
final class JobRows {
  /** Every column but the body, in the order {@link #read} expects. */
  static final String COLUMNS =
      "local_id, priority, state, attempts_allowed, attempts_remaining, custom_status,"
          + " created_at, run_after, updated_at, claim_descriptor";

  static final String COLUMNS_WITH_BODY = COLUMNS + ", body";

  private JobRows() {}

  static StoredJob read(ResultSet rs, boolean withBody) throws SQLException {
    return new StoredJob(
        rs.getLong(1),
        rs.getInt(2),
        JobState.fromCode(rs.getInt(3)),
        rs.getInt(4),
        rs.getInt(5),
        nullToEmpty(rs.getString(6)),
        rs.getLong(7),
        rs.getLong(8),
        rs.getLong(9),
        rs.getString(10),
        withBody ? rs.getBytes(11) : null);
  }

  /** The job as a claim leaves it: IN_PROGRESS under the claim, attempts unchanged. */
  static StoredJob claimed(StoredJob job, String descriptor, long nowMillis) {
    return new StoredJob(
        job.localId(),
        job.priority(),
        JobState.IN_PROGRESS,
        job.attemptsAllowed(),
        job.attemptsRemaining(),
        job.customStatus(),
        job.createdAtMillis(),
        job.runAfterMillis(),
        nowMillis,
        descriptor,
        job.body());
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
