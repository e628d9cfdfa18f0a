package dev.flipper.queue.spi;

import dev.flipper.queue.JobState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One shard of a {@link QueueStore}: a database, or a Redis instance. Every method is atomic in the
 * store and safe to call from many threads and many processes at once. Methods that name a queue
 * which does not exist on this shard throw {@code QueueException(QUEUE_NOT_FOUND)} unless
 * documented otherwise. A shard that cannot be reached throws {@code
 * QueueException(SHARD_CONNECTION_FAILED)} and reports {@link #healthy()} false for a while, so the
 * service can route around it. A shard that is reachable but has no free connection within its wait
 * throws {@code QueueException(SHARD_BUSY)}, having done nothing, and stays healthy: a full pool is
 * back-pressure, not an outage.
 */
public interface ShardStore {

  /** Custom statuses are cut to this many characters after every append or prepend. */
  int CUSTOM_STATUS_MAX_CHARS = 5000;

  /** The shard's name as it appears in job descriptors: no ':' in it. */
  String name();

  /** A dequeue-only shard receives no new jobs but serves every other operation. */
  boolean dequeueOnly();

  /** False while recent calls failed to reach the shard; the service then skips it where it can. */
  boolean healthy();

  /** Creates the queue on this shard; a no-op if it exists. */
  void createQueue(String queue);

  /** Removes the queue and all its jobs, in every state; a no-op if it does not exist. */
  void deleteQueue(String queue);

  Set<String> queueNames();

  boolean queueExists(String queue);

  /**
   * Inserts all jobs or none, and returns their local ids in the order given. Local ids are unique
   * within the shard and never reused.
   */
  List<Long> enqueue(String queue, List<NewJobRecord> jobs);

  /**
   * Enqueues jobs that all have a unique key, one after the other, each atomically: if a job of the
   * queue holds the key, returns that job as a duplicate and inserts nothing; else inserts the job,
   * which then holds the key. A job holds its key while it exists and either its {@code
   * uniqueUntilMillis} is {@link NewJobRecord#WHILE_ACTIVE} and it is PENDING or IN_PROGRESS (a job
   * that SUCCEEDED or FAILED for good releases the key for ever, even if retried later), or {@code
   * createdAtMillis} of the new job is before its {@code uniqueUntilMillis}. A later job of the
   * same list sees the earlier ones. Not all-or-none across the list.
   */
  List<UniqueInsert> enqueueUnique(String queue, List<NewJobRecord> jobs);

  /**
   * Claims up to {@code limit} PENDING jobs of one priority whose run-after is at or before {@code
   * claim.nowMillis()}, earliest run-after first: each becomes IN_PROGRESS with the claim's
   * descriptor and source, and updated-at = now. A job is never claimed by two concurrent calls.
   * Returned jobs carry their body and the attempt counts as they were before the claim. An empty
   * or missing queue gives an empty list (the service checks existence).
   */
  List<StoredJob> claim(String queue, int priority, int limit, Claim claim);

  /** Like {@link #claim} but changes nothing (a dry run). */
  List<StoredJob> peek(String queue, int priority, int limit, long nowMillis);

  /**
   * IN_PROGRESS → SUCCEEDED for each job, appending its custom status. Jobs in any other state are
   * left alone. Returns how many jobs changed.
   */
  int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis);

  /**
   * For each IN_PROGRESS job: with more than one attempt remaining, back to PENDING with one
   * attempt fewer, the claim cleared and run-after = now + retry delay; otherwise FAILED with 0
   * attempts remaining. Appends the custom status. Jobs in any other state are left alone. Returns
   * how many jobs changed.
   */
  int ackFailed(String queue, List<AckRecord> acks, long nowMillis);

  /**
   * Applies the checkpoint if the job is IN_PROGRESS and was claimed by exactly {@code source};
   * returns false (and changes nothing) otherwise. Sets run-after and updated-at, which restarts
   * the claim time-out.
   */
  boolean checkpoint(String queue, String source, CheckpointRecord checkpoint, long nowMillis);

  /** The job, or empty if it does not exist (also when the queue does not). */
  Optional<StoredJob> lookup(String queue, JobRef job, boolean includeBody);

  /**
   * Counts jobs of one priority and state whose run-after is at or before now ({@code future}
   * false) or after now ({@code future} true), whose body matches the filter, stopping at {@code
   * cap}.
   */
  int count(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      int cap);

  /**
   * Up to {@code limit} jobs of one priority and state, as for {@link #count}, that sort strictly
   * after {@code after} in the order run-after descending, local id descending. Bodies are not
   * included.
   */
  List<StoredJob> scan(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      ScanBound after,
      int limit);

  /**
   * Moves up to {@code limit} FAILED jobs of one priority to PENDING with {@code attemptsToAllow}
   * attempts remaining, run-after as given and the claim cleared. Returns how many moved.
   */
  int retryFailed(
      String queue,
      int priority,
      int attemptsToAllow,
      long runAfterMillis,
      int limit,
      long nowMillis);

  /**
   * Deletes up to {@code limit} jobs of one priority and state whose body matches. Returns how
   * many.
   */
  int deleteJobs(String queue, int priority, JobState state, BodyFilter filter, int limit);

  /** Deletes one job, in any state; false if it (or its queue) does not exist. */
  boolean deleteJob(String queue, JobRef job);

  /**
   * Moves one job from FAILED to PENDING, as {@link #retryFailed} does, in one atomic step; false
   * (and no change) if it (or its queue) does not exist or is not FAILED.
   */
  boolean retryJob(
      String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis);

  /**
   * Marks the queue paused (dequeues return nothing; everything else works) or not. Stored with the
   * queue, so every server sharing the store sees it; a no-op if the queue does not exist.
   */
  void setPaused(String queue, boolean paused);

  /** The queues of this shard that are paused. */
  Set<String> pausedQueues();

  /**
   * The claim time-out, for every queue of the shard: IN_PROGRESS jobs last updated before {@code
   * claimedBefore} go back to PENDING (one attempt fewer, claim cleared, runnable now) if they have
   * more than one attempt remaining, else to FAILED with 0 remaining. At most {@code maxJobs} jobs.
   * Each job transitions once even when several monitors run at the same time.
   */
  MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis);

  /**
   * Deletes up to {@code maxJobs} jobs in {@code state} (SUCCEEDED or FAILED) that entered it
   * before {@code enteredBefore}, for every queue of the shard. Returns the number deleted per
   * queue.
   */
  Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs);
}
