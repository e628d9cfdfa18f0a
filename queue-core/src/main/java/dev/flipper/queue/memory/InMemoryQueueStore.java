package dev.flipper.queue.memory;

import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link QueueStore} that keeps jobs in memory, for tests and demos: several named shards,
 * dequeue-only flags, and hooks to make a shard unhealthy or unreachable. Nothing survives the JVM.
 * Thread-safe.
 *
 * <pre>{@code
 * InMemoryQueueStore store = InMemoryQueueStore.builder().shard("1").shard("2").dequeueOnlyShard("3").build();
 * store.shard("2").setReachable(false); // every call to shard 2 now fails with SHARD_CONNECTION_FAILED
 * }</pre>
 */
public final class InMemoryQueueStore implements QueueStore {
  private final List<InMemoryShardStore> shards;

  private InMemoryQueueStore(List<InMemoryShardStore> shards) {
    this.shards = shards;
  }

  /** A store with enqueueable shards of the given names. */
  public static InMemoryQueueStore withShards(String... names) {
    Builder builder = builder();
    for (String name : names) {
      builder.shard(name);
    }
    return builder.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Another store over the same shards, as a second server process would see the same databases.
   * The shard list is shared too: adding or removing a shard shows in both.
   */
  public InMemoryQueueStore sharingStorage() {
    return new InMemoryQueueStore(shards);
  }

  @Override
  public List<ShardStore> shards() {
    return List.copyOf(shards);
  }

  /** The shard with this name; IllegalArgumentException if there is none. */
  public InMemoryShardStore shard(String name) {
    for (InMemoryShardStore shard : shards) {
      if (shard.name().equals(name)) {
        return shard;
      }
    }
    throw new IllegalArgumentException("no shard named '" + name + "'; shards: " + names());
  }

  /**
   * Adds an empty shard, as a configuration reload would; it gets every queue the other shards
   * have.
   */
  public InMemoryShardStore addShard(String name, boolean dequeueOnly) {
    InMemoryShardStore shard = new InMemoryShardStore(name, dequeueOnly);
    synchronized (shards) {
      if (names().contains(name)) {
        throw new IllegalArgumentException("shard '" + name + "' exists already");
      }
      for (InMemoryShardStore existing : shards) {
        existing.queueNames().forEach(shard::createQueue);
      }
      shards.add(shard);
    }
    return shard;
  }

  /**
   * Removes a shard from the configuration; its jobs stay reachable through the returned object
   * only.
   */
  public InMemoryShardStore removeShard(String name) {
    InMemoryShardStore shard = shard(name);
    shards.remove(shard);
    return shard;
  }

  private List<String> names() {
    List<String> names = new ArrayList<>();
    for (InMemoryShardStore shard : shards) {
      names.add(shard.name());
    }
    return names;
  }

  /** Nothing to release. */
  @Override
  public void close() {}

  /** Builds an {@link InMemoryQueueStore}. Not thread-safe. */
  public static final class Builder {
    private final List<InMemoryShardStore> shards = new ArrayList<>();

    private Builder() {}

    public Builder shard(String name) {
      return add(name, false);
    }

    /** A shard that serves everything except new jobs. */
    public Builder dequeueOnlyShard(String name) {
      return add(name, true);
    }

    private Builder add(String name, boolean dequeueOnly) {
      Objects.requireNonNull(name, "name");
      for (InMemoryShardStore shard : shards) {
        if (shard.name().equals(name)) {
          throw new IllegalArgumentException("shard '" + name + "' is listed twice");
        }
      }
      shards.add(new InMemoryShardStore(name, dequeueOnly));
      return this;
    }

    public InMemoryQueueStore build() {
      if (shards.isEmpty()) {
        throw new IllegalArgumentException("an in-memory store needs at least one shard");
      }
      return new InMemoryQueueStore(new CopyOnWriteArrayList<>(shards));
    }
  }
}
