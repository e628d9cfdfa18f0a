package dev.flipper.queue.redis.internal;

import dev.flipper.queue.JobState;

/**
 * The keys of one priority of one queue. Each state has one sorted set of job members (see {@link
 * Members}); being in the set is being in the state:
 *
 * <pre>
 *   p&lt;n&gt;:pending         score = run-after    (claim order, count, scan)
 *   p&lt;n&gt;:running         score = updated-at   (claim time-out)
 *   p&lt;n&gt;:succeeded       score = run-after    (count, scan)
 *   p&lt;n&gt;:failed          score = run-after    (count, scan, retry)
 *   p&lt;n&gt;:succeeded:log   list of "&lt;entered at&gt;:&lt;member&gt;" in the order jobs finished (garbage collection)
 *   p&lt;n&gt;:failed:log      the same for FAILED
 *   p&lt;n&gt;:job:&lt;member&gt;    hash: the job (see {@link JobFields})
 * </pre>
 *
 * IN_PROGRESS has no run-after index: keeping one would cost two sorted-set writes per job on the
 * hot path, and the running set is small (bounded by the workers' concurrency), so count and scan
 * sort it in memory. Finished jobs are collected through append-only logs rather than a second
 * sorted set: an RPUSH per job instead of a ZADD into a set that holds every finished job.
 * Immutable.
 */
public final class PriorityKeys {
  private final int priority;
  private final byte[] pending;
  private final byte[] running;
  private final byte[] succeeded;
  private final byte[] failed;
  private final byte[] succeededLog;
  private final byte[] failedLog;
  private final byte[] jobPrefix;

  PriorityKeys(String queueBase, int priority) {
    this.priority = priority;
    String base = queueBase + "p" + priority + ":";
    this.pending = KeySpace.bytes(base + "pending");
    this.running = KeySpace.bytes(base + "running");
    this.succeeded = KeySpace.bytes(base + "succeeded");
    this.failed = KeySpace.bytes(base + "failed");
    this.succeededLog = KeySpace.bytes(base + "succeeded:log");
    this.failedLog = KeySpace.bytes(base + "failed:log");
    this.jobPrefix = KeySpace.bytes(base + "job:");
  }

  public int priority() {
    return priority;
  }

  public byte[] pending() {
    return pending;
  }

  public byte[] running() {
    return running;
  }

  public byte[] succeeded() {
    return succeeded;
  }

  public byte[] failed() {
    return failed;
  }

  public byte[] succeededLog() {
    return succeededLog;
  }

  public byte[] failedLog() {
    return failedLog;
  }

  /**
   * Job hash keys are this prefix followed by the member; scripts that discover members build them
   * so.
   */
  public byte[] jobPrefix() {
    return jobPrefix;
  }

  public byte[] job(long localId) {
    return job(Members.of(localId));
  }

  public byte[] job(byte[] member) {
    byte[] key = new byte[jobPrefix.length + member.length];
    System.arraycopy(jobPrefix, 0, key, 0, jobPrefix.length);
    System.arraycopy(member, 0, key, jobPrefix.length, member.length);
    return key;
  }

  /** The set whose members are the jobs in the state. */
  public byte[] stateSet(JobState state) {
    return switch (state) {
      case PENDING -> pending;
      case IN_PROGRESS -> running;
      case SUCCEEDED -> succeeded;
      case FAILED -> failed;
    };
  }

  /** True if the state's set is scored by run-after (all but IN_PROGRESS). */
  public static boolean scoredByRunAfter(JobState state) {
    return state != JobState.IN_PROGRESS;
  }

  /** The garbage collection log of a finished state. */
  public byte[] log(JobState state) {
    return switch (state) {
      case SUCCEEDED -> succeededLog;
      case FAILED -> failedLog;
      default -> throw new IllegalArgumentException(state + " has no log; only finished states do");
    };
  }
}
