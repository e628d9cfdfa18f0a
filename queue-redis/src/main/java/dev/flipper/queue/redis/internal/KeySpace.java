package dev.flipper.queue.redis.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names every Redis key of one shard. Per-shard keys use the hash tag {@code {<shard>}}, per-queue
 * keys the hash tag {@code {<shard>:<queue>}}, so every script touches keys of a single cluster
 * slot:
 *
 * <pre>
 *   &lt;prefix&gt;{&lt;shard&gt;}:queues                       set: the queue names (registry)
 *   &lt;prefix&gt;{&lt;shard&gt;}:ids                          counter: local ids, unique in the shard
 *   &lt;prefix&gt;{&lt;shard&gt;}:paused                       set: the paused queues
 *   &lt;prefix&gt;{&lt;shard&gt;:&lt;queue&gt;}:meta                 hash: exists while the queue exists
 *   &lt;prefix&gt;{&lt;shard&gt;:&lt;queue&gt;}:prios                set: priorities that ever had jobs
 *   &lt;prefix&gt;{&lt;shard&gt;:&lt;queue&gt;}:p&lt;n&gt;:...             per priority: see {@link PriorityKeys}
 * </pre>
 *
 * Thread-safe; key objects are cached per queue.
 */
public final class KeySpace {
  /** Beyond this many cached queues the cache starts over (it only saves string building). */
  private static final int MAX_CACHED_QUEUES = 10_000;

  private final String prefix;
  private final String shard;
  private final byte[] queueRegistry;
  private final byte[] idCounter;
  private final byte[] pausedQueues;
  private final Map<String, QueueKeys> queues = new ConcurrentHashMap<>();

  public KeySpace(String prefix, String shard) {
    this.prefix = prefix;
    this.shard = shard;
    this.queueRegistry = bytes(prefix + "{" + shard + "}:queues");
    this.idCounter = bytes(prefix + "{" + shard + "}:ids");
    this.pausedQueues = bytes(prefix + "{" + shard + "}:paused");
  }

  public byte[] queueRegistry() {
    return queueRegistry;
  }

  public byte[] idCounter() {
    return idCounter;
  }

  public byte[] pausedQueues() {
    return pausedQueues;
  }

  public QueueKeys queue(String queue) {
    QueueKeys keys = queues.get(queue);
    if (keys == null) {
      if (queues.size() > MAX_CACHED_QUEUES) {
        queues.clear();
      }
      keys =
          queues.computeIfAbsent(queue, q -> new QueueKeys(prefix + "{" + shard + ":" + q + "}:"));
    }
    return keys;
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
