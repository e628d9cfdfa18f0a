package dev.flipper.queue.redis;

import dev.flipper.queue.JobState;
import dev.flipper.queue.spi.AckRecord;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.CheckpointRecord;
import dev.flipper.queue.spi.Claim;
import dev.flipper.queue.spi.JobRef;
import dev.flipper.queue.spi.MonitorCounts;
import dev.flipper.queue.spi.NewJobRecord;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link RedisQueueStore} with the contract suite's failure hooks. An unreachable shard is served
 * by a twin store whose shard of the same name points at a closed port, so the
 * SHARD_CONNECTION_FAILED comes from the real connection code; {@code healthy()} can be pinned
 * independently. Test code only.
 */
final class FaultInjectingStore implements QueueStore {
  private final RedisQueueStore real;
  private final String keyPrefix;
  private final Map<String, Boolean> pinnedHealth = new ConcurrentHashMap<>();
  private final Map<String, RedisQueueStore> unreachable = new ConcurrentHashMap<>();

  FaultInjectingStore(RedisQueueStore real) {
    this.real = real;
    this.keyPrefix = real.keyPrefix();
  }

  /** Pins what {@code healthy()} reports for the shard; calls are not affected. */
  void setHealthy(String shard, boolean healthy) {
    pinnedHealth.put(shard, healthy);
  }

  /**
   * Routes the shard's calls to a closed port (false) or back to Redis (true); health is not
   * affected.
   */
  void setReachable(String shard, boolean reachable) {
    if (reachable) {
      RedisQueueStore twin = unreachable.remove(shard);
      if (twin != null) {
        twin.close();
      }
      return;
    }
    pinnedHealth.putIfAbsent(shard, shardNamed(real.shards(), shard).healthy());
    unreachable.computeIfAbsent(
        shard,
        name ->
            RedisQueueStore.builder()
                .shards(List.of(RedisShardConfig.of(name, "127.0.0.1", PrivateRedis.freePort())))
                .keyPrefix(keyPrefix)
                .build());
  }

  @Override
  public List<ShardStore> shards() {
    List<ShardStore> shards = new ArrayList<>();
    for (ShardStore shard : real.shards()) {
      shards.add(new Faulty(shard));
    }
    return shards;
  }

  @Override
  public void close() {
    unreachable.values().forEach(RedisQueueStore::close);
    real.close();
  }

  private static ShardStore shardNamed(List<ShardStore> shards, String name) {
    return shards.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  /** Delegates to the real shard or to its unreachable twin. */
  private final class Faulty implements ShardStore {
    private final ShardStore shard;

    Faulty(ShardStore shard) {
      this.shard = shard;
    }

    private ShardStore target() {
      RedisQueueStore twin = unreachable.get(shard.name());
      return twin == null ? shard : twin.shards().get(0);
    }

    @Override
    public String name() {
      return shard.name();
    }

    @Override
    public boolean dequeueOnly() {
      return shard.dequeueOnly();
    }

    @Override
    public boolean healthy() {
      Boolean pinned = pinnedHealth.get(shard.name());
      return pinned != null ? pinned : shard.healthy();
    }

    @Override
    public void createQueue(String queue) {
      target().createQueue(queue);
    }

    @Override
    public void deleteQueue(String queue) {
      target().deleteQueue(queue);
    }

    @Override
    public Set<String> queueNames() {
      return target().queueNames();
    }

    @Override
    public boolean queueExists(String queue) {
      return target().queueExists(queue);
    }

    @Override
    public List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
      return target().enqueue(queue, jobs);
    }

    @Override
    public List<dev.flipper.queue.spi.UniqueInsert> enqueueUnique(
        String queue, List<NewJobRecord> jobs) {
      return target().enqueueUnique(queue, jobs);
    }

    @Override
    public List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
      return target().claim(queue, priority, limit, claim);
    }

    @Override
    public List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
      return target().peek(queue, priority, limit, nowMillis);
    }

    @Override
    public int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
      return target().ackSucceeded(queue, acks, nowMillis);
    }

    @Override
    public int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
      return target().ackFailed(queue, acks, nowMillis);
    }

    @Override
    public boolean checkpoint(
        String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
      return target().checkpoint(queue, source, checkpoint, nowMillis);
    }

    @Override
    public Optional<StoredJob> lookup(String queue, JobRef job, boolean includeBody) {
      return target().lookup(queue, job, includeBody);
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
      return target().count(queue, priority, state, future, filter, nowMillis, cap);
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
      return target().scan(queue, priority, state, future, filter, nowMillis, after, limit);
    }

    @Override
    public int retryFailed(
        String queue,
        int priority,
        int attemptsToAllow,
        long runAfterMillis,
        int limit,
        long nowMillis) {
      return target()
          .retryFailed(queue, priority, attemptsToAllow, runAfterMillis, limit, nowMillis);
    }

    @Override
    public int deleteJobs(
        String queue, int priority, JobState state, BodyFilter filter, int limit) {
      return target().deleteJobs(queue, priority, state, filter, limit);
    }

    @Override
    public boolean deleteJob(String queue, JobRef job) {
      return target().deleteJob(queue, job);
    }

    @Override
    public boolean retryJob(
        String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis) {
      return target().retryJob(queue, job, attemptsToAllow, runAfterMillis, nowMillis);
    }

    @Override
    public void setPaused(String queue, boolean paused) {
      target().setPaused(queue, paused);
    }

    @Override
    public Set<String> pausedQueues() {
      return target().pausedQueues();
    }

    @Override
    public MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
      return target().timeOutClaims(claimedBefore, maxJobs, nowMillis);
    }

    @Override
    public Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
      return target().deleteFinished(state, enteredBefore, maxJobs);
    }
  }
}
