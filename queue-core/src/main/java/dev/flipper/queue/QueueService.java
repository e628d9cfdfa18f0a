package dev.flipper.queue;

import dev.flipper.queue.spi.QueueStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * The job queue: PinLater's operations over any {@link QueueStore}. All backend-independent logic lives
 * here: validation, priority order across shards, piggy-backed acks, scan paging. Thread-safe; one instance
 * per process is enough, and many processes may share one store.
 *
 * <pre>{@code
 * QueueService queue = QueueService.builder(store).priorityLevels(3).build();
 * queue.createQueue("mail");
 * List<JobDescriptor> ids = queue.enqueue("mail", List.of(NewJob.of("hello")));
 * }</pre>
 */
public final class QueueService {
  /** Queue names: letters, digits and '_', at most this many characters. */
  public static final int MAX_QUEUE_NAME_LENGTH = 100;

  private final QueueStore store;
  private final int priorityLevels;
  private final int maxBodyBytes;
  private final int countLimit;
  private final String serverId;
  private final String adminPasswordHash;
  private final Clock clock;
  private final Random random;

  private QueueService(Builder builder) {
    this.store = builder.store;
    this.priorityLevels = builder.priorityLevels;
    this.maxBodyBytes = builder.maxBodyBytes;
    this.countLimit = builder.countLimit;
    this.serverId = builder.serverId;
    this.adminPasswordHash = builder.adminPasswordHash;
    this.clock = builder.clock;
    this.random = builder.random;
  }

  public static Builder builder(QueueStore store) {
    return new Builder(store);
  }

  public int priorityLevels() {
    return priorityLevels;
  }

  public QueueStore store() {
    return store;
  }

  /** Creates the queue on every shard; idempotent. QUEUE_NAME_INVALID unless {@code [A-Za-z0-9_]+}. */
  public void createQueue(String queue) {
    throw new UnsupportedOperationException();
  }

  /**
   * Deletes the queue and all its jobs on every shard; idempotent. The password must hash (see
   * {@link PasswordHash}) to the configured admin hash, else PASSWORD_INVALID.
   */
  public void deleteQueue(String queue, String password) {
    throw new UnsupportedOperationException();
  }

  public Set<String> queueNames() {
    throw new UnsupportedOperationException();
  }

  /** Stores the jobs, all or none, and returns their descriptors in the order given. */
  public List<JobDescriptor> enqueue(String queue, List<NewJob> jobs) {
    throw new UnsupportedOperationException();
  }

  /**
   * Claims up to {@code limit} due jobs: every priority-1 job of the covered shards before any priority-2
   * job, shards in random order. The piggy-backed ack, if any, is applied first, even if no job comes back.
   */
  public List<DequeuedJob> dequeue(DequeueParams params) {
    throw new UnsupportedOperationException();
  }

  public void ack(AckParams params) {
    throw new UnsupportedOperationException();
  }

  /** Applies each checkpoint whose job is IN_PROGRESS under a claim by {@code source}; others are no-ops. */
  public void checkpoint(String queue, String source, List<CheckpointParams> checkpoints) {
    throw new UnsupportedOperationException();
  }

  /** The jobs that exist, keyed by descriptor in request order; missing jobs are absent. */
  public Map<JobDescriptor, JobInfo> lookup(List<JobDescriptor> jobs, boolean includeBody) {
    throw new UnsupportedOperationException();
  }

  public int count(CountParams params) {
    throw new UnsupportedOperationException();
  }

  public ScanPage scan(ScanParams params) {
    throw new UnsupportedOperationException();
  }

  public int retryFailed(RetryFailedParams params) {
    throw new UnsupportedOperationException();
  }

  public int deleteJobs(DeleteJobsParams params) {
    throw new UnsupportedOperationException();
  }

  /** Builds a {@link QueueService}; {@link #build()} validates every setting. Not thread-safe. */
  public static final class Builder {
    private final QueueStore store;
    private int priorityLevels = 3;
    private int maxBodyBytes = 1 << 20;
    private int countLimit = 100_000;
    private String serverId = "flipper";
    private String adminPasswordHash = "";
    private Clock clock = Clock.systemUTC();
    private Random random = new Random();

    private Builder(QueueStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Priorities are 1..levels, 1 the highest. Default 3. */
    public Builder priorityLevels(int levels) {
      this.priorityLevels = levels;
      return this;
    }

    /** Larger bodies are refused with ENQUEUE_REJECTED. Default 1 MiB. */
    public Builder maxBodyBytes(int bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    /** Counts stop at this many jobs per shard and priority. Default 100,000. */
    public Builder countLimit(int limit) {
      this.countLimit = limit;
      return this;
    }

    /** Names this server in claim descriptors, for example {@code host:9010}. */
    public Builder serverId(String id) {
      this.serverId = id;
      return this;
    }

    /** SHA-256 hex of the admin password (see {@link PasswordHash}); empty disables deleteQueue. */
    public Builder adminPasswordHash(String hash) {
      this.adminPasswordHash = hash;
      return this;
    }

    public Builder clock(Clock newClock) {
      this.clock = newClock;
      return this;
    }

    public Builder random(Random newRandom) {
      this.random = newRandom;
      return this;
    }

    public QueueService build() {
      if (priorityLevels < 1 || priorityLevels > 100) {
        throw new IllegalArgumentException("priorityLevels must be 1..100, was " + priorityLevels);
      }
      if (maxBodyBytes < 1) {
        throw new IllegalArgumentException("maxBodyBytes must be > 0, was " + maxBodyBytes);
      }
      if (countLimit < 1) {
        throw new IllegalArgumentException("countLimit must be > 0, was " + countLimit);
      }
      if (serverId == null || serverId.isBlank()) {
        throw new IllegalArgumentException("serverId must not be blank");
      }
      Objects.requireNonNull(adminPasswordHash, "adminPasswordHash");
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(random, "random");
      return new QueueService(this);
    }
  }
}
