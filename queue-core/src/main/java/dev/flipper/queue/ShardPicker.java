package dev.flipper.queue;

import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/** Chooses shards for an operation from one snapshot of the store's shard list. Thread-safe. */
final class ShardPicker {
  private final QueueStore store;
  private final Random random;

  ShardPicker(QueueStore store, Random random) {
    this.store = store;
    this.random = random;
  }

  /** All shards, in configuration order. */
  List<ShardStore> all() {
    return store.shards();
  }

  /** Healthy shards in random order; NO_HEALTHY_SHARDS if there is none. */
  List<ShardStore> healthyShuffled(String operation) {
    List<ShardStore> healthy = new ArrayList<>();
    List<ShardStore> shards = store.shards();
    for (ShardStore shard : shards) {
      if (shard.healthy()) {
        healthy.add(shard);
      }
    }
    if (healthy.isEmpty()) {
      throw new QueueException(
          ErrorCode.NO_HEALTHY_SHARDS,
          operation + ": none of the " + shards.size() + " shards is healthy");
    }
    Collections.shuffle(healthy, random);
    return healthy;
  }

  /** The healthy shards a dequeue visits: round(n * coverage) of them, in random order. */
  List<ShardStore> forDequeue(double coverage) {
    List<ShardStore> healthy = healthyShuffled("dequeue");
    int visit = (int) Math.round(healthy.size() * coverage);
    return healthy.subList(0, visit);
  }

  /**
   * A random healthy shard that takes new jobs, other than the one named {@code excluded} (may be
   * null).
   */
  Optional<ShardStore> forEnqueue(String excluded) {
    List<ShardStore> eligible = new ArrayList<>();
    for (ShardStore shard : store.shards()) {
      if (shard.healthy() && !shard.dequeueOnly() && !shard.name().equals(excluded)) {
        eligible.add(shard);
      }
    }
    return eligible.isEmpty()
        ? Optional.empty()
        : Optional.of(eligible.get(random.nextInt(eligible.size())));
  }

  /**
   * The shard that owns a unique key: the key's hash over the shards that take new jobs, in
   * configuration order, healthy or not, so every server routes a key alike while the shard list
   * stays the same.
   */
  Optional<ShardStore> forKey(String uniqueKey) {
    List<ShardStore> enqueueable = new ArrayList<>();
    for (ShardStore shard : store.shards()) {
      if (!shard.dequeueOnly()) {
        enqueueable.add(shard);
      }
    }
    return enqueueable.isEmpty()
        ? Optional.empty()
        : Optional.of(enqueueable.get(Math.floorMod(uniqueKey.hashCode(), enqueueable.size())));
  }
}
