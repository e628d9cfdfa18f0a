package dev.flipper.queue.memory;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import dev.flipper.queue.spi.UniqueInsert;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One in-memory shard. Every operation holds the shard's lock, so each is atomic. Test hooks:
 * {@link #setHealthy} changes only what {@link #healthy()} reports, {@link #setReachable} makes
 * every call fail with SHARD_CONNECTION_FAILED (as an unreachable database would), {@link #setBusy}
 * with SHARD_BUSY (as a full connection pool would), {@link #setDequeueOnly} toggles the flag as a
 * configuration reload would, and {@link #calls} counts calls per method. Thread-safe.
 */
public final class InMemoryShardStore implements ShardStore {
  private static final Comparator<Job> DUE_ORDER =
      Comparator.comparingLong((Job job) -> job.runAfter).thenComparingLong(job -> job.id);
  private static final Comparator<Job> SCAN_ORDER =
      Comparator.comparingLong((Job job) -> job.runAfter)
          .thenComparingLong(job -> job.id)
          .reversed();

  private final String name;
  private volatile boolean dequeueOnly;
  private volatile boolean healthy = true;
  private volatile boolean reachable = true;
  private volatile boolean busy;
  private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

  private final Object lock = new Object();
  private final Map<String, QueueData> queues = new TreeMap<>();
  private long nextLocalId = 1;

  InMemoryShardStore(String name, boolean dequeueOnly) {
    if (name.isEmpty() || name.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "shard name '" + name + "' must be non-empty and contain no ':'");
    }
    this.name = name;
    this.dequeueOnly = dequeueOnly;
  }

  // ---------------------------------------------------------------------------------------------------
  // Test hooks

  /** What {@link #healthy()} reports; calls keep working. */
  public void setHealthy(boolean newHealthy) {
    this.healthy = newHealthy;
  }

  /**
   * False makes every call fail with SHARD_CONNECTION_FAILED; {@link #healthy()} is not changed.
   */
  public void setReachable(boolean newReachable) {
    this.reachable = newReachable;
  }

  /**
   * True makes every call fail with SHARD_BUSY, having done nothing; {@link #healthy()} is not
   * changed.
   */
  public void setBusy(boolean newBusy) {
    this.busy = newBusy;
  }

  public void setDequeueOnly(boolean newDequeueOnly) {
    this.dequeueOnly = newDequeueOnly;
  }

  /** How many times the named SPI method (for example "claim" or "queueExists") was called. */
  public long calls(String method) {
    AtomicLong count = calls.get(method);
    return count == null ? 0 : count.get();
  }

  // ---------------------------------------------------------------------------------------------------
  // ShardStore

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean dequeueOnly() {
    return dequeueOnly;
  }

  @Override
  public boolean healthy() {
    return healthy;
  }

  @Override
  public void createQueue(String queue) {
    enter("createQueue");
    synchronized (lock) {
      queues.computeIfAbsent(queue, q -> new QueueData());
    }
  }

  @Override
  public void deleteQueue(String queue) {
    enter("deleteQueue");
    synchronized (lock) {
      queues.remove(queue);
    }
  }

  @Override
  public Set<String> queueNames() {
    enter("queueNames");
    synchronized (lock) {
      return Set.copyOf(queues.keySet());
    }
  }

  @Override
  public boolean queueExists(String queue) {
    enter("queueExists");
    synchronized (lock) {
      return queues.containsKey(queue);
    }
  }

  @Override
  public List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
    enter("enqueue");
    synchronized (lock) {
      QueueData data = existing(queue);
      List<Long> ids = new ArrayList<>(jobs.size());
      for (NewJobRecord record : jobs) {
        ids.add(insert(data, record).id);
      }
      return ids;
    }
  }

  @Override
  public List<UniqueInsert> enqueueUnique(String queue, List<NewJobRecord> jobs) {
    enter("enqueueUnique");
    synchronized (lock) {
      QueueData data = existing(queue);
      List<UniqueInsert> results = new ArrayList<>(jobs.size());
      for (NewJobRecord record : jobs) {
        Job holder = data.holder(record.uniqueKey(), record.createdAtMillis());
        results.add(
            holder != null
                ? new UniqueInsert(new JobRef(holder.priority, holder.id), true)
                : new UniqueInsert(ref(insert(data, record)), false));
      }
      return results;
    }
  }

  private Job insert(QueueData data, NewJobRecord record) {
    Job job = new Job();
    job.id = nextLocalId++;
    job.priority = record.priority();
    job.state = JobState.PENDING;
    job.attemptsAllowed = record.attemptsAllowed();
    job.attemptsRemaining = record.attemptsAllowed();
    job.customStatus = truncate(record.customStatus());
    job.createdAt = record.createdAtMillis();
    job.runAfter = record.runAfterMillis();
    job.updatedAt = record.createdAtMillis();
    job.body = record.body().clone();
    job.uniqueKey = record.uniqueKey();
    job.uniqueUntil = record.uniqueUntilMillis();
    data.add(job);
    return job;
  }

  private static JobRef ref(Job job) {
    return new JobRef(job.priority, job.id);
  }

  @Override
  public List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
    enter("claim");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      if (data == null) {
        return List.of();
      }
      List<Job> due = data.due(priority, claim.nowMillis(), limit);
      List<StoredJob> claimed = new ArrayList<>(due.size());
      for (Job job : due) {
        data.change(
            job,
            j -> {
              j.state = JobState.IN_PROGRESS;
              j.claimDescriptor = claim.descriptor();
              j.claimSource = claim.source();
              j.updatedAt = claim.nowMillis();
            });
        claimed.add(job.toStored(true));
      }
      return claimed;
    }
  }

  @Override
  public List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
    enter("peek");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      if (data == null) {
        return List.of();
      }
      List<StoredJob> due = new ArrayList<>();
      for (Job job : data.due(priority, nowMillis, limit)) {
        due.add(job.toStored(true));
      }
      return due;
    }
  }

  @Override
  public int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
    enter("ackSucceeded");
    synchronized (lock) {
      QueueData data = existing(queue);
      int changed = 0;
      for (AckRecord ack : acks) {
        Job job = data.find(ack.job());
        if (job == null || job.state != JobState.IN_PROGRESS) {
          continue;
        }
        data.change(
            job,
            j -> {
              j.state = JobState.SUCCEEDED;
              j.customStatus = truncate(j.customStatus + ack.appendCustomStatus());
              j.updatedAt = nowMillis;
            });
        changed++;
      }
      return changed;
    }
  }

  @Override
  public int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
    enter("ackFailed");
    synchronized (lock) {
      QueueData data = existing(queue);
      int changed = 0;
      for (AckRecord ack : acks) {
        Job job = data.find(ack.job());
        if (job == null || job.state != JobState.IN_PROGRESS) {
          continue;
        }
        data.change(
            job,
            j -> {
              j.customStatus = truncate(j.customStatus + ack.appendCustomStatus());
              j.fail(nowMillis, nowMillis + ack.retryDelayMillis());
            });
        changed++;
      }
      return changed;
    }
  }

  @Override
  public boolean checkpoint(
      String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
    enter("checkpoint");
    synchronized (lock) {
      QueueData data = existing(queue);
      Job job = data.find(checkpoint.job());
      if (job == null || job.state != JobState.IN_PROGRESS || !source.equals(job.claimSource)) {
        return false;
      }
      data.change(
          job,
          j -> {
            if (checkpoint.newBody() != null) {
              j.body = checkpoint.newBody().clone();
            }
            if (checkpoint.attemptsAllowed() != null) {
              j.attemptsAllowed = checkpoint.attemptsAllowed();
              j.attemptsRemaining = checkpoint.attemptsAllowed();
            }
            if (checkpoint.prependCustomStatus() != null) {
              j.customStatus = truncate(checkpoint.prependCustomStatus() + j.customStatus);
            }
            if (checkpoint.moveToPending()) {
              j.state = JobState.PENDING;
              j.claimDescriptor = null;
              j.claimSource = null;
            }
            j.runAfter = checkpoint.runAfterMillis();
            j.updatedAt = nowMillis;
          });
      return true;
    }
  }

  @Override
  public Optional<StoredJob> lookup(String queue, JobRef ref, boolean includeBody) {
    enter("lookup");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      Job job = data == null ? null : data.find(ref);
      return job == null ? Optional.empty() : Optional.of(job.toStored(includeBody));
    }
  }

  @Override
  public int count(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      int cap) {
    enter("count");
    synchronized (lock) {
      int count = 0;
      for (Job job : existing(queue).jobs.values()) {
        if (count >= cap) {
          break;
        }
        if (job.matches(priority, state, future, filter, nowMillis)) {
          count++;
        }
      }
      return count;
    }
  }

  @Override
  public List<StoredJob> scan(
      String queue,
      int priority,
      JobState state,
      boolean future,
      BodyFilter filter,
      long nowMillis,
      ScanBound after,
      int limit) {
    enter("scan");
    synchronized (lock) {
      List<Job> matching = new ArrayList<>();
      for (Job job : existing(queue).jobs.values()) {
        if (job.matches(priority, state, future, filter, nowMillis)
            && after.admits(job.runAfter, job.id)) {
          matching.add(job);
        }
      }
      matching.sort(SCAN_ORDER);
      List<StoredJob> page = new ArrayList<>();
      for (Job job : matching.subList(0, Math.min(limit, matching.size()))) {
        page.add(job.toStored(false));
      }
      return page;
    }
  }

  @Override
  public int retryFailed(
      String queue,
      int priority,
      int attemptsToAllow,
      long runAfterMillis,
      int limit,
      long nowMillis) {
    enter("retryFailed");
    synchronized (lock) {
      QueueData data = existing(queue);
      List<Job> failed = new ArrayList<>();
      for (Job job : data.jobs.values()) {
        if (failed.size() >= limit) {
          break;
        }
        if (job.priority == priority && job.state == JobState.FAILED) {
          failed.add(job);
        }
      }
      for (Job job : failed) {
        data.change(
            job,
            j -> {
              j.state = JobState.PENDING;
              j.attemptsRemaining = attemptsToAllow;
              j.runAfter = runAfterMillis;
              j.claimDescriptor = null;
              j.claimSource = null;
              j.updatedAt = nowMillis;
            });
      }
      return failed.size();
    }
  }

  @Override
  public int deleteJobs(String queue, int priority, JobState state, BodyFilter filter, int limit) {
    enter("deleteJobs");
    synchronized (lock) {
      QueueData data = existing(queue);
      List<Job> doomed = new ArrayList<>();
      for (Job job : data.jobs.values()) {
        if (doomed.size() >= limit) {
          break;
        }
        if (job.priority == priority && job.state == state && filter.matches(job.body)) {
          doomed.add(job);
        }
      }
      doomed.forEach(data::remove);
      return doomed.size();
    }
  }

  @Override
  public boolean deleteJob(String queue, JobRef ref) {
    enter("deleteJob");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      Job job = data == null ? null : data.find(ref);
      if (job != null) {
        data.remove(job);
      }
      return job != null;
    }
  }

  @Override
  public boolean retryJob(
      String queue, JobRef ref, int attemptsToAllow, long runAfterMillis, long nowMillis) {
    enter("retryJob");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      Job job = data == null ? null : data.find(ref);
      if (job == null || job.state != JobState.FAILED) {
        return false;
      }
      data.change(
          job,
          j -> {
            j.state = JobState.PENDING;
            j.attemptsRemaining = attemptsToAllow;
            j.runAfter = runAfterMillis;
            j.claimDescriptor = null;
            j.claimSource = null;
            j.updatedAt = nowMillis;
          });
      return true;
    }
  }

  @Override
  public void setPaused(String queue, boolean paused) {
    enter("setPaused");
    synchronized (lock) {
      QueueData data = queues.get(queue);
      if (data != null) {
        data.paused = paused;
      }
    }
  }

  @Override
  public Set<String> pausedQueues() {
    enter("pausedQueues");
    synchronized (lock) {
      Set<String> paused = new TreeSet<>();
      queues.forEach(
          (name, data) -> {
            if (data.paused) {
              paused.add(name);
            }
          });
      return paused;
    }
  }

  @Override
  public MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
    enter("timeOutClaims");
    synchronized (lock) {
      Map<String, Integer> retried = new HashMap<>();
      Map<String, Integer> failed = new HashMap<>();
      int left = maxJobs;
      for (Map.Entry<String, QueueData> entry : queues.entrySet()) {
        QueueData data = entry.getValue();
        List<Job> expired = new ArrayList<>();
        for (Job job : data.jobs.values()) {
          if (expired.size() >= left) {
            break;
          }
          if (job.state == JobState.IN_PROGRESS && job.updatedAt < claimedBefore) {
            expired.add(job);
          }
        }
        for (Job job : expired) {
          data.change(job, j -> j.fail(nowMillis, nowMillis));
          (job.state == JobState.PENDING ? retried : failed).merge(entry.getKey(), 1, Integer::sum);
        }
        left -= expired.size();
      }
      return new MonitorCounts(retried, failed);
    }
  }

  @Override
  public Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
    enter("deleteFinished");
    if (!state.isFinished()) {
      throw new IllegalArgumentException("deleteFinished takes SUCCEEDED or FAILED, not " + state);
    }
    synchronized (lock) {
      Map<String, Integer> deleted = new HashMap<>();
      int left = maxJobs;
      for (Map.Entry<String, QueueData> entry : queues.entrySet()) {
        QueueData data = entry.getValue();
        List<Job> old = new ArrayList<>();
        for (Job job : data.jobs.values()) {
          if (old.size() >= left) {
            break;
          }
          if (job.state == state && job.updatedAt < enteredBefore) {
            old.add(job);
          }
        }
        old.forEach(data::remove);
        if (!old.isEmpty()) {
          deleted.put(entry.getKey(), old.size());
        }
        left -= old.size();
      }
      return deleted;
    }
  }

  @Override
  public String toString() {
    return "InMemoryShardStore(" + name + (dequeueOnly ? ", dequeue-only" : "") + ")";
  }

  // ---------------------------------------------------------------------------------------------------

  private void enter(String method) {
    calls.computeIfAbsent(method, m -> new AtomicLong()).incrementAndGet();
    if (!reachable) {
      throw new QueueException(
          ErrorCode.SHARD_CONNECTION_FAILED,
          "in-memory shard " + name + " is unreachable (set by a test) during " + method);
    }
    if (busy) {
      throw new QueueException(
          ErrorCode.SHARD_BUSY,
          "shard '" + name + "' is busy (set by a test), " + method + " not done");
    }
  }

  private QueueData existing(String queue) {
    QueueData data = queues.get(queue);
    if (data == null) {
      throw QueueException.queueNotFound(queue);
    }
    return data;
  }

  private static String truncate(String status) {
    return status.length() <= CUSTOM_STATUS_MAX_CHARS
        ? status
        : status.substring(0, CUSTOM_STATUS_MAX_CHARS);
  }

  /**
   * The jobs of one queue, with an index of PENDING jobs per priority in due order. Guarded by the
   * lock.
   */
  private static final class QueueData {
    final TreeMap<Long, Job> jobs = new TreeMap<>();
    final Map<Integer, TreeSet<Job>> pending = new HashMap<>();

    /** The job holding each unique key; an entry is dropped when its job releases the key. */
    final Map<String, Job> uniqueKeys = new HashMap<>();

    boolean paused;

    void add(Job job) {
      jobs.put(job.id, job);
      index(job);
      if (job.uniqueKey != null) {
        uniqueKeys.put(job.uniqueKey, job);
      }
    }

    void remove(Job job) {
      unindex(job);
      jobs.remove(job.id);
      releaseKey(job);
    }

    /** The job that holds the key for a job enqueued at {@code nowMillis}, or null. */
    Job holder(String key, long nowMillis) {
      Job holder = uniqueKeys.get(key);
      if (holder != null
          && holder.uniqueUntil != NewJobRecord.WHILE_ACTIVE
          && nowMillis >= holder.uniqueUntil) {
        releaseKey(holder);
        return null;
      }
      return holder;
    }

    private void releaseKey(Job job) {
      if (job.uniqueKey != null) {
        uniqueKeys.remove(job.uniqueKey, job);
        job.uniqueKey = null;
      }
    }

    Job find(JobRef ref) {
      Job job = jobs.get(ref.localId());
      return job != null && job.priority == ref.priority() ? job : null;
    }

    /** Mutates a job and keeps the PENDING index right. */
    void change(Job job, java.util.function.Consumer<Job> mutation) {
      unindex(job);
      mutation.accept(job);
      index(job);
      boolean finished = job.state == JobState.SUCCEEDED || job.state == JobState.FAILED;
      if (finished && job.uniqueUntil == NewJobRecord.WHILE_ACTIVE) {
        releaseKey(job);
      }
    }

    List<Job> due(int priority, long nowMillis, int limit) {
      List<Job> due = new ArrayList<>();
      TreeSet<Job> set = pending.get(priority);
      if (set == null) {
        return due;
      }
      for (Job job : set) {
        if (due.size() >= limit || job.runAfter > nowMillis) {
          break;
        }
        due.add(job);
      }
      return due;
    }

    private void index(Job job) {
      if (job.state == JobState.PENDING) {
        pending.computeIfAbsent(job.priority, p -> new TreeSet<>(DUE_ORDER)).add(job);
      }
    }

    private void unindex(Job job) {
      TreeSet<Job> set = pending.get(job.priority);
      if (set != null) {
        set.remove(job);
      }
    }
  }

  /** A stored job; mutable, guarded by the shard's lock. */
  private static final class Job {
    long id;
    int priority;
    JobState state;
    int attemptsAllowed;
    int attemptsRemaining;
    String customStatus;
    long createdAt;
    long runAfter;
    long updatedAt;
    String claimDescriptor;
    String claimSource;
    byte[] body;
    String uniqueKey;
    long uniqueUntil;

    /** A failed attempt: retry later if attempts are left, else FAILED. */
    void fail(long nowMillis, long retryAt) {
      if (attemptsRemaining > 1) {
        state = JobState.PENDING;
        attemptsRemaining--;
        runAfter = retryAt;
        claimDescriptor = null;
        claimSource = null;
      } else {
        state = JobState.FAILED;
        attemptsRemaining = 0;
      }
      updatedAt = nowMillis;
    }

    boolean matches(
        int wantedPriority,
        JobState wantedState,
        boolean future,
        BodyFilter filter,
        long nowMillis) {
      return priority == wantedPriority
          && state == wantedState
          && (future ? runAfter > nowMillis : runAfter <= nowMillis)
          && filter.matches(body);
    }

    StoredJob toStored(boolean includeBody) {
      return new StoredJob(
          id,
          priority,
          state,
          attemptsAllowed,
          attemptsRemaining,
          customStatus,
          createdAt,
          runAfter,
          updatedAt,
          claimDescriptor,
          includeBody ? body.clone() : null);
    }
  }
}
