package dev.flipper.queue;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job queue's operations, PinLater's API: queues, enqueue, claim (dequeue), ack and checkpoint
 * of claimed jobs, and the read and bulk operations operators use. {@link QueueService} is the
 * in-process implementation over a storage backend; {@code ThriftJobQueue} (queue-client) runs the
 * same operations on a remote server. Both run every request through a {@link QueueService}
 * eventually, so this contract holds for either; implementations are thread-safe.
 *
 * <p>Errors are {@link QueueException}s carrying PinLater's {@link ErrorCode} and a message that
 * says what was wrong. Every request is validated completely before anything changes; invalid
 * arguments that no specific code covers fail with {@link ErrorCode#UNKNOWN} and a message starting
 * "invalid request". An operation on a queue that does not exist fails with QUEUE_NOT_FOUND once it
 * found or changed less than asked.
 *
 * <p>Jobs live on shards; a {@link JobDescriptor} names the queue, shard, priority and id of a job.
 * Priorities are 1 (highest) to the configured number of levels, else PRIORITY_NOT_SUPPORTED. A
 * shard that cannot be reached is skipped by the operations other shards can serve (dequeue, count,
 * scan, retryFailed, deleteJobs, queueNames); an enqueue is retried once on another shard.
 */
public interface JobQueue {

  // ---------------------------------------------------------------------------------------------------
  // Queues

  /**
   * Creates the queue on every shard; idempotent. QUEUE_NAME_INVALID unless {@code [A-Za-z0-9_]+},
   * QUEUE_NAME_TOO_LONG over {@value QueueService#MAX_QUEUE_NAME_LENGTH} characters.
   */
  void createQueue(String queue);

  /**
   * Deletes the queue and all its jobs on every shard; idempotent. The password must hash (see
   * {@link PasswordHash}) to the configured admin hash, else PASSWORD_INVALID; without a configured
   * hash deleteQueue is disabled (PASSWORD_INVALID).
   */
  void deleteQueue(String queue, String password);

  /** The queues of all healthy shards, iterated in name order. */
  Set<String> queueNames();

  // ---------------------------------------------------------------------------------------------------
  // Jobs

  /**
   * Stores the jobs, all or none, on one random healthy shard that takes new jobs, and returns
   * their descriptors in the order given. An empty list gives an empty result. A body over the
   * configured size limit rejects the whole request with ENQUEUE_REJECTED; no healthy shard for new
   * jobs is NO_HEALTHY_SHARDS. Jobs with a unique key are stored as {@link #enqueueWithOutcomes}
   * says; a duplicate's descriptor is the holder's.
   */
  List<JobDescriptor> enqueue(String queue, List<NewJob> jobs);

  /**
   * Like {@link #enqueue}, and says for each job whether it was a duplicate. A job with a unique
   * key goes to the shard its key hashes to; if a job of the queue holds the key there, the outcome
   * is that job, marked duplicate, and nothing is stored (the first of several jobs with one key in
   * a request wins). A request with unique keys is not all-or-none: each keyed job is stored on its
   * own (see docs/queue.md "Unique jobs").
   */
  List<EnqueueOutcome> enqueueWithOutcomes(String queue, List<NewJob> jobs);

  /**
   * Claims up to {@code limit} due jobs for {@code params.source()}: every priority-1 job of the
   * covered shards before any priority-2 job, shards in random order. The piggy-backed ack, if any,
   * is applied first, even if no job comes back and also for a dry run (which claims nothing).
   * Every job of one call gets the same claim descriptor, shown by {@link #lookup}.
   */
  List<DequeuedJob> dequeue(DequeueParams params);

  /**
   * Acks dequeued jobs. Acks of jobs that are not IN_PROGRESS, or of shards the store does not
   * have, are silent no-ops. Every descriptor must name {@code params.queue()}.
   */
  void ack(AckParams params);

  /**
   * Applies each checkpoint whose job is IN_PROGRESS under a claim made by exactly {@code source};
   * the others are silent no-ops. Every descriptor must name {@code queue}.
   */
  void checkpoint(String queue, String source, List<CheckpointParams> checkpoints);

  /**
   * The jobs that exist, keyed by descriptor in request order; missing jobs (also of unknown queues
   * or shards) are absent. Each descriptor is looked up in its own queue. Bodies are included only
   * when asked.
   */
  Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody);

  /**
   * Counts jobs over all healthy shards, for one priority or all; each (shard, priority) counts at
   * most the configured count limit.
   */
  int count(CountParams params);

  /**
   * One page of jobs, ordered by run-after descending, then shard, priority and local id. Pass the
   * returned continuation to get the next page; paging through returns every job that stays put
   * exactly once. A continuation this queue did not hand out is CONTINUATION_INVALID.
   */
  ScanPage scan(ScanParams params);

  /**
   * Moves up to {@code limit} FAILED jobs of one priority back to PENDING; returns how many moved.
   */
  int retryFailed(RetryFailedParams params);

  /**
   * Deletes up to {@code limit} jobs of one state and priority whose body matches; returns how
   * many.
   */
  int deleteJobs(DeleteJobsParams params);

  /**
   * Moves one FAILED job back to PENDING, runnable now, with {@code attemptsToAllow} attempts
   * remaining (as {@link #retryFailed} does for many). False if the job does not exist or is not
   * FAILED; QUEUE_NOT_FOUND if its queue does not exist.
   */
  boolean retryJob(JobDescriptor job, int attemptsToAllow);
}
