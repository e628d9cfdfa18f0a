package dev.flipper.queue.spi;

/**
 * A validated job to insert; the custom status is already truncated.
 *
 * @param uniqueKey null, or the validated key the job holds (see {@link ShardStore#enqueueUnique})
 * @param uniqueUntilMillis with a key: {@link #WHILE_ACTIVE}, or the instant the key is released
 *     whatever the job's state
 */
public record NewJobRecord(
    int priority,
    byte[] body,
    long runAfterMillis,
    int attemptsAllowed,
    String customStatus,
    long createdAtMillis,
    String uniqueKey,
    long uniqueUntilMillis) {
  /** The key is held while the job is PENDING or IN_PROGRESS. */
  public static final long WHILE_ACTIVE = 0;

  /** A job without a unique key. */
  public NewJobRecord(
      int priority,
      byte[] body,
      long runAfterMillis,
      int attemptsAllowed,
      String customStatus,
      long createdAtMillis) {
    this(priority, body, runAfterMillis, attemptsAllowed, customStatus, createdAtMillis, null, 0);
  }

  /** True if the job has a unique key. */
  public boolean keyed() {
    return uniqueKey != null;
  }
}
