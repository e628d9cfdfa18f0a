package dev.flipper.queue.mysql;

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
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ScanBound;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Wraps a store so a test can make a shard unreachable (every call fails with
 * SHARD_CONNECTION_FAILED) or make it report unhealthy, independently, as the contract suite's
 * hooks ask. Real outages are covered by {@link UnreachableShardTest}. Thread-safe.
 */
final class FaultInjectingStore implements QueueStore {
  /** Fault switches shared by every wrapper over the same storage. */
  static final class Faults {
    final Set<String> unreachable = ConcurrentHashMap.newKeySet();
    final Map<String, Boolean> healthOverride = new ConcurrentHashMap<>();
  }

  private final QueueStore delegate;
  private final Faults faults;
  private final List<ShardStore> shards;

  FaultInjectingStore(QueueStore delegate, Faults faults) {
    this.delegate = delegate;
    this.faults = faults;
    this.shards = delegate.shards().stream().<ShardStore>map(FaultyShard::new).toList();
  }

  @Override
  public List<ShardStore> shards() {
    return shards;
  }

  @Override
  public void close() {
    delegate.close();
  }

  private final class FaultyShard implements ShardStore {
    private final ShardStore shard;

    FaultyShard(ShardStore shard) {
      this.shard = shard;
    }

    private <T> T call(Supplier<T> operation) {
      if (faults.unreachable.contains(shard.name())) {
        throw new QueueException(
            ErrorCode.SHARD_CONNECTION_FAILED,
            "shard '" + shard.name() + "' is unreachable (simulated)");
      }
      return operation.get();
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
      return faults.healthOverride.getOrDefault(shard.name(), shard.healthy());
    }

    @Override
    public void createQueue(String queue) {
      call(
          () -> {
            shard.createQueue(queue);
            return null;
          });
    }

    @Override
    public void deleteQueue(String queue) {
      call(
          () -> {
            shard.deleteQueue(queue);
            return null;
          });
    }

    @Override
    public Set<String> queueNames() {
      return call(shard::queueNames);
    }

    @Override
    public boolean queueExists(String queue) {
      return call(() -> shard.queueExists(queue));
    }

    @Override
    public List<Long> enqueue(String queue, List<NewJobRecord> jobs) {
      return call(() -> shard.enqueue(queue, jobs));
    }

    @Override
    public List<dev.flipper.queue.spi.UniqueInsert> enqueueUnique(
        String queue, List<NewJobRecord> jobs) {
      return call(() -> shard.enqueueUnique(queue, jobs));
    }

    @Override
    public List<StoredJob> claim(String queue, int priority, int limit, Claim claim) {
      return call(() -> shard.claim(queue, priority, limit, claim));
    }

    @Override
    public List<StoredJob> peek(String queue, int priority, int limit, long nowMillis) {
      return call(() -> shard.peek(queue, priority, limit, nowMillis));
    }

    @Override
    public int ackSucceeded(String queue, List<AckRecord> acks, long nowMillis) {
      return call(() -> shard.ackSucceeded(queue, acks, nowMillis));
    }

    @Override
    public int ackFailed(String queue, List<AckRecord> acks, long nowMillis) {
      return call(() -> shard.ackFailed(queue, acks, nowMillis));
    }

    @Override
    public boolean checkpoint(
        String queue, String source, CheckpointRecord checkpoint, long nowMillis) {
      return call(() -> shard.checkpoint(queue, source, checkpoint, nowMillis));
    }

    @Override
    public Optional<StoredJob> lookup(String queue, JobRef job, boolean includeBody) {
      return call(() -> shard.lookup(queue, job, includeBody));
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
      return call(() -> shard.count(queue, priority, state, future, filter, nowMillis, cap));
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
      return call(
          () -> shard.scan(queue, priority, state, future, filter, nowMillis, after, limit));
    }

    @Override
    public int retryFailed(
        String queue,
        int priority,
        int attemptsToAllow,
        long runAfterMillis,
        int limit,
        long nowMillis) {
      return call(
          () ->
              shard.retryFailed(
                  queue, priority, attemptsToAllow, runAfterMillis, limit, nowMillis));
    }

    @Override
    public int deleteJobs(
        String queue, int priority, JobState state, BodyFilter filter, int limit) {
      return call(() -> shard.deleteJobs(queue, priority, state, filter, limit));
    }

    @Override
    public boolean deleteJob(String queue, JobRef job) {
      return call(() -> shard.deleteJob(queue, job));
    }

    @Override
    public boolean retryJob(
        String queue, JobRef job, int attemptsToAllow, long runAfterMillis, long nowMillis) {
      return call(() -> shard.retryJob(queue, job, attemptsToAllow, runAfterMillis, nowMillis));
    }

    @Override
    public void setPaused(String queue, boolean paused) {
      call(
          () -> {
            shard.setPaused(queue, paused);
            return null;
          });
    }

    @Override
    public Set<String> pausedQueues() {
      return call(shard::pausedQueues);
    }

    @Override
    public MonitorCounts timeOutClaims(long claimedBefore, int maxJobs, long nowMillis) {
      return call(() -> shard.timeOutClaims(claimedBefore, maxJobs, nowMillis));
    }

    @Override
    public Map<String, Integer> deleteFinished(JobState state, long enteredBefore, int maxJobs) {
      return call(() -> shard.deleteFinished(state, enteredBefore, maxJobs));
    }
  }
}
