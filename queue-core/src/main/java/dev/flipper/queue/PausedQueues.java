package dev.flipper.queue;

import dev.flipper.queue.spi.ShardStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Which queues are paused, as the store says, re-read at most once per {@code refresh} so that
 * dequeues do not pay a store round trip each. A pause set on any server (or the dashboard) thus
 * reaches every server sharing the store within {@code refresh}. A queue counts as paused if any
 * reachable shard says so. When no shard answers, the last known set stays. Thread-safe.
 */
final class PausedQueues {
  private final Supplier<List<ShardStore>> shards;
  private final Clock clock;
  private final long refreshMillis;
  private volatile Set<String> paused = Set.of();
  private volatile long readAtMillis = Long.MIN_VALUE;

  PausedQueues(Supplier<List<ShardStore>> shards, Clock clock, Duration refresh) {
    this.shards = shards;
    this.clock = clock;
    this.refreshMillis = refresh.toMillis();
  }

  boolean isPaused(String queue) {
    long now = clock.millis();
    if (stale(now)) {
      synchronized (this) {
        if (stale(now)) { // only the first of many dequeues that find the set stale reads the store
          read(now);
        }
      }
    }
    return paused.contains(queue);
  }

  private boolean stale(long nowMillis) {
    return readAtMillis == Long.MIN_VALUE || nowMillis - readAtMillis >= refreshMillis;
  }

  /** Reads the set now (after a change made here, so this server applies it at once). */
  synchronized Set<String> read(long nowMillis) {
    Set<String> found = new TreeSet<>();
    boolean answered = false;
    for (ShardStore shard : shards.get()) {
      if (!shard.healthy()) {
        continue;
      }
      try {
        found.addAll(shard.pausedQueues());
        answered = true;
      } catch (QueueException e) {
        if (!e.errorCode().shardUnavailable()) {
          throw e;
        }
      }
    }
    if (answered) {
      paused = Set.copyOf(found);
    }
    readAtMillis = nowMillis;
    return paused;
  }
}
