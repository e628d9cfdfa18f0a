package dev.flipper.queue.redis.internal;

import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.RedisShardConfig;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One Redis shard of the store: queue administration here, job operations in {@link JobWrites},
 * {@link JobReads} and {@link ShardMonitor}. Thread-safe.
 */
public final class RedisShard implements ShardStore {
  /** deleteQueue removes at most this many jobs per script call. */
  private static final int DELETE_QUEUE_CHUNK = 1000;

  private static final byte[] CREATED_FIELD = {'c', 'r', 'e', 'a', 't', 'e', 'd'};

  private final RedisShardConfig config;
  private final ShardConnection connection;
  private final KeySpace keys;
  private final Scripts scripts;
  private final JobWrites writes;
  private final JobReads reads;
  private final ShardMonitor monitor;

  public RedisShard(
      RedisShardConfig config, ShardConnection connection, String keyPrefix, Scripts scripts) {
    this.config = config;
    this.connection = connection;
    this.keys = new KeySpace(keyPrefix, config.name());
    this.scripts = scripts;
    this.writes = new JobWrites(connection, keys, scripts);
    this.reads = new JobReads(connection, keys);
    this.monitor = new ShardMonitor(connection, keys, scripts);
  }

  public RedisShardConfig config() {
    return config;
  }

  public ShardConnection connection() {
    return connection;
  }

  public KeySpace keys() {
    return keys;
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public boolean dequeueOnly() {
    return config.dequeueOnly();
  }

  @Override
  public boolean healthy() {
    return connection.health().live();
  }

  @Override
  public void createQueue(String queue) {
    if (queue == null || queue.isEmpty() || queue.matches(".*[:{}].*")) {
      throw new QueueException(
          ErrorCode.QUEUE_NAME_INVALID,
          "queue name '"
              + queue
              + "' is not valid for Redis: it must be non-empty and contain no ':', '{' or '}'");
    }
    QueueKeys q = keys.queue(queue);
    connection.call(
        "createQueue",
        queue,
        jedis -> {
          // The meta key first: it is what makes the queue exist; the registry only lists it.
          jedis.hsetnx(q.meta(), CREATED_FIELD, JobFields.ascii(System.currentTimeMillis()));
          jedis.sadd(keys.queueRegistry(), JobFields.utf8(queue));
          return null;
        });
  }

  @Override
  public void deleteQueue(String queue) {
    QueueKeys q = keys.queue(queue);
    connection.call(
        "deleteQueue",
        queue,
        jedis -> {
          // Chunked, so a large queue never blocks Redis for long; the last call removes meta and
          // sets.
          while (true) {
            List<Integer> priorities = ShardMonitor.priorities(jedis, q);
            Args scriptKeys = new Args(2 + 7 * priorities.size()).add(q.meta()).add(q.priorities());
            Args args = new Args(1 + priorities.size()).add(DELETE_QUEUE_CHUNK);
            for (int priority : priorities) {
              PriorityKeys p = q.priority(priority);
              scriptKeys
                  .add(p.pending())
                  .add(p.running())
                  .add(p.succeeded())
                  .add(p.failed())
                  .add(p.succeededLog())
                  .add(p.failedLog())
                  .add(p.jobPrefix());
              args.add(priority);
            }
            if ((Long) scripts.deleteQueue.eval(jedis, scriptKeys.list(), args.list()) == 0) {
              break;
            }
          }
          jedis.srem(keys.queueRegistry(), JobFields.utf8(queue));
          jedis.srem(keys.pausedQueues(), JobFields.utf8(queue));
          return null;
        });
  }

  @Override
  public Set<String> queueNames() {
    return connection.call("getQueueNames", null, jedis -> ShardMonitor.queueNames(jedis, keys));
  }

  @Override
  public void setPaused(String queue, boolean paused) {
    connection.call(
        paused ? "pause" : "resume",
        queue,
        jedis -> {
          if (!paused) {
            jedis.srem(keys.pausedQueues(), JobFields.utf8(queue));
          } else if (jedis.exists(keys.queue(queue).meta())) {
            jedis.sadd(keys.pausedQueues(), JobFields.utf8(queue));
          }
          return null;
        });
  }

  @Override
  public Set<String> pausedQueues() {
    return connection.call(
        "pausedQueues",
        null,
        jedis -> {
          Set<String> names = new java.util.TreeSet<>();
          for (byte[] name : jedis.smembers(keys.pausedQueues())) {
            names.add(new String(name, java.nio.charset.StandardCharsets.UTF_8));
          }
          return names;
        });
  }

  @Override
  public boolean queueExists(String queue) {
    return connection.call("queueExists", null, jedis -> jedis.exists(keys.queue(queue).meta()));
  }

  @Override
  public List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
    return writes.enqueue(queue, jobs);
  }

  @Override
  public List<UniqueInsert> enqueueUnique(String queue, List<NewJobRecord> jobs) {
    return writes.enqueueUnique(queue, jobs);
  }

  @Override
  public List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
    return writes.claim(queue, priority, limit, claim);
  }

  @Override
  public List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
    return reads.peek(queue, priority, limit, nowMillis);
  }

  @Override
  public int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
    return writes.ackSucceeded(queue, acks, nowMillis);
  }

  @Override
  public int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
    return writes.ackFailed(queue, acks, nowMillis);
  }

  @Override
  public boolean checkpoint(
      String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
    return writes.checkpoint(queue, source, checkpoint, nowMillis);
  }

  @Override
  public Optional<StoredJob> lookup(String queue, JobRef job, boolean includeBody) {
    return reads.lookup(queue, job, includeBody);
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
    return reads.count(queue, priority, state, future, filter, nowMillis, cap);
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
    return reads.scan(queue, priority, state, future, filter, nowMillis, after, limit);
  }

  @Override
  public int retryFailed(
      String queue,
      int priority,
      int attemptsToAllow,
      long runAfterMillis,
      int limit,
      long nowMillis) {
    return writes.retryFailed(queue, priority, attemptsToAllow, runAfterMillis, limit, nowMillis);
  }

  @Override
  public int deleteJobs(String queue, int priority, JobState state, BodyFilter filter, int limit) {
    return writes.deleteJobs(queue, priority, state, filter, limit);
  }

  @Override
  public boolean deleteJob(String queue, JobRef job) {
    return writes.deleteJob(queue, job);
  }

  @Override
  public boolean retryJob(
      String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis) {
    return writes.retryJob(queue, job, attemptsToAllow, runAfterMillis, nowMillis);
  }

  @Override
  public MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
    return monitor.timeOutClaims(claimedBefore, maxJobs, nowMillis);
  }

  @Override
  public Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
    return monitor.deleteFinished(state, enteredBefore, maxJobs);
  }

  @Override
  public String toString() {
    return "RedisShard["
        + config.name()
        + " at "
        + config.address()
        + (config.dequeueOnly() ? ", dequeue-only" : "")
        + "]";
  }
}
