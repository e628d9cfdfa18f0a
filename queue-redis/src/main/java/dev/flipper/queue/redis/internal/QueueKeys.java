package dev.flipper.queue.redis.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;

/** The keys of one queue on one shard, all under one hash tag. Thread-safe. */
public final class QueueKeys {
  /** Priorities up to this value have cached keys; higher ones are built on each call. */
  private static final int CACHED_PRIORITIES = 128;

  private final String base;
  private final byte[] meta;
  private final byte[] priorities;
  private final AtomicReferenceArray<PriorityKeys> byPriority =
      new AtomicReferenceArray<>(CACHED_PRIORITIES);

  QueueKeys(String base) {
    this.base = base;
    this.meta = KeySpace.bytes(base + "meta");
    this.priorities = KeySpace.bytes(base + "prios");
  }

  /** A hash that exists exactly while the queue exists. */
  public byte[] meta() {
    return meta;
  }

  /** A set of the priorities that ever held jobs, so the monitor and deleteQueue find every key. */
  public byte[] priorities() {
    return priorities;
  }

  /** The common start of every key of this queue (for SCAN in tests and tools). */
  public String base() {
    return base;
  }

  /**
   * The string holding a unique key: "&lt;priority&gt;:&lt;member&gt;:&lt;until&gt;" of its job.
   */
  public byte[] uniqueKey(String key) {
    return KeySpace.bytes(base + "u:" + key);
  }

  public PriorityKeys priority(int priority) {
    if (priority < 0 || priority >= CACHED_PRIORITIES) {
      return new PriorityKeys(base, priority);
    }
    PriorityKeys keys = byPriority.get(priority);
    if (keys == null) {
      keys = new PriorityKeys(base, priority);
      byPriority.compareAndSet(priority, null, keys);
    }
    return keys;
  }
}
