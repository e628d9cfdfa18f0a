package dev.flipper.queue.redis;

import dev.flipper.queue.QueueException;
import dev.flipper.queue.redis.internal.ConnectionSettings;
import dev.flipper.queue.redis.internal.HealthChecker;
import dev.flipper.queue.redis.internal.PersistenceCheck;
import dev.flipper.queue.redis.internal.RedisShard;
import dev.flipper.queue.redis.internal.Scripts;
import dev.flipper.queue.redis.internal.ShardConnection;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job store on Redis: one or more shards, each a Redis database, every state change one Lua
 * script. Requires Redis 7.0 or later. Thread-safe; the shard list can be replaced while running
 * with {@link #reconfigure}.
 *
 * <pre>{@code
 * RedisQueueStore store = RedisQueueStore.builder()
 *     .shards(List.of(RedisShardConfig.of("1", "127.0.0.1", 6379)))
 *     .build();
 * }</pre>
 *
 * See docs/redis.md for the key layout and what a Redis crash can lose.
 */
public final class RedisQueueStore implements QueueStore {
  /**
   * Prefix of every key unless {@link Builder#keyPrefix} says otherwise; the config's
   * storage.redis.keyPrefix.
   */
  public static final String DEFAULT_KEY_PREFIX = "flipper:";

  private static final Logger log = LoggerFactory.getLogger(RedisQueueStore.class);

  private final String keyPrefix;
  private final ConnectionSettings settings;
  private final Scripts scripts = new Scripts();
  private final HealthChecker healthChecker;
  private volatile List<RedisShard> shards = List.of();
  private boolean closed; // guarded by this

  private RedisQueueStore(Builder builder) {
    this.keyPrefix = builder.keyPrefix;
    this.settings =
        new ConnectionSettings(
            builder.poolSize,
            builder.connectTimeout,
            builder.socketTimeout,
            builder.borrowTimeout,
            builder.deadAfterFailures,
            builder.liveAfterSuccesses);
    log.info(
        "Redis queue store: key prefix '{}', pool size {}, connect time-out {} ms, socket time-out {} ms, "
            + "health ping every {} ms (dead after {} failures, live after {} successes)",
        keyPrefix,
        settings.poolSize(),
        settings.connectTimeout().toMillis(),
        settings.socketTimeout().toMillis(),
        builder.healthCheckInterval.toMillis(),
        settings.deadAfterFailures(),
        settings.liveAfterSuccesses());
    reconfigure(builder.shards);
    this.healthChecker = new HealthChecker(builder.healthCheckInterval, this::connections);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public List<ShardStore> shards() {
    return List.copyOf(shards);
  }

  /** The prefix of every key this store writes. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /**
   * Replaces the shard list without a restart. Shards whose connection settings are unchanged keep
   * their pools (a changed dequeue-only flag included); removed shards are closed once the new list
   * is in place. A new shard gets every queue the existing shards know.
   *
   * @throws IllegalArgumentException if the list is empty or names a shard twice
   */
  public synchronized void reconfigure(List<RedisShardConfig> newConfigs) {
    if (closed) {
      throw new IllegalStateException("the Redis queue store is closed");
    }
    validate(newConfigs);
    List<RedisShard> old = shards;
    Map<String, RedisShard> oldByName = new HashMap<>();
    for (RedisShard shard : old) {
      oldByName.put(shard.name(), shard);
    }
    Set<ShardConnection> kept = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    List<RedisShard> next = new ArrayList<>(newConfigs.size());
    List<RedisShard> added = new ArrayList<>();
    for (RedisShardConfig config : newConfigs) {
      RedisShard previous = oldByName.get(config.name());
      if (previous != null && previous.config().sameConnection(config)) {
        kept.add(previous.connection());
        next.add(
            previous.config().equals(config)
                ? previous
                : new RedisShard(config, previous.connection(), keyPrefix, scripts));
      } else {
        RedisShard shard =
            new RedisShard(
                config, new ShardConnection(config, settings, scripts), keyPrefix, scripts);
        PersistenceCheck.run(shard.connection());
        next.add(shard);
        added.add(shard);
      }
    }
    if (!old.isEmpty()) {
      registerExistingQueues(old, added);
    }
    shards = List.copyOf(next);
    for (RedisShard shard : old) {
      if (!kept.contains(shard.connection())) {
        shard.connection().close();
      }
    }
    log.info(
        "Redis queue store shards: {}", next.stream().map(s -> s.config().toString()).toList());
  }

  /** Stops the health checks and closes every connection. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    healthChecker.close();
    for (RedisShard shard : shards) {
      shard.connection().close();
    }
  }

  private Collection<ShardConnection> connections() {
    return shards.stream().map(RedisShard::connection).toList();
  }

  /**
   * Every queue must exist on every shard, so a shard added at run time gets the queues the others
   * have.
   */
  private static void registerExistingQueues(List<RedisShard> existing, List<RedisShard> added) {
    if (added.isEmpty()) {
      return;
    }
    Set<String> queues = new TreeSet<>();
    for (RedisShard shard : existing) {
      try {
        queues.addAll(shard.queueNames());
      } catch (QueueException e) {
        log.warn(
            "cannot read the queue names of shard '{}' for the new shards: {}",
            shard.name(),
            e.getMessage());
      }
    }
    for (RedisShard shard : added) {
      for (String queue : queues) {
        try {
          shard.createQueue(queue);
        } catch (QueueException e) {
          log.warn(
              "cannot create queue '{}' on new shard '{}'; create it again once the shard is reachable: {}",
              queue,
              shard.name(),
              e.getMessage());
        }
      }
      if (!queues.isEmpty()) {
        log.info("registered {} existing queues on new shard '{}'", queues.size(), shard.name());
      }
    }
  }

  private static void validate(List<RedisShardConfig> configs) {
    Objects.requireNonNull(configs, "shards");
    if (configs.isEmpty()) {
      throw new IllegalArgumentException("the Redis queue store needs at least one shard");
    }
    Set<String> names = new HashSet<>();
    for (RedisShardConfig config : configs) {
      if (!names.add(config.name())) {
        throw new IllegalArgumentException(
            "Redis shard name '" + config.name() + "' appears twice; names must be unique");
      }
    }
  }

  /**
   * Settings of a {@link RedisQueueStore}. Essentials: {@link #shards}. Tuning: {@link #poolSize},
   * {@link #healthCheckInterval}. Rarely tuned: the rest. Not thread-safe.
   */
  public static final class Builder {
    private List<RedisShardConfig> shards = List.of();
    private String keyPrefix = DEFAULT_KEY_PREFIX;
    private int poolSize = 16;
    private Duration healthCheckInterval = Duration.ofSeconds(2);
    private int deadAfterFailures = 3;
    private int liveAfterSuccesses = 3;
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration socketTimeout = Duration.ofSeconds(5);
    private Duration borrowTimeout = Duration.ofSeconds(5);

    private Builder() {}

    /** The shards, in configuration order; at least one; names unique. */
    public Builder shards(List<RedisShardConfig> newShards) {
      this.shards = List.copyOf(newShards);
      return this;
    }

    /**
     * Prepended to every key, so several Flipper installations (or tests) can share a Redis
     * database. Default {@code "flipper:"}. Must not contain '{' or '}' (they would break the hash
     * tags).
     */
    public Builder keyPrefix(String prefix) {
      this.keyPrefix = prefix;
      return this;
    }

    /** The most connections per shard. Default 16. */
    public Builder poolSize(int size) {
      this.poolSize = size;
      return this;
    }

    /** How often every shard is pinged. Default 2 s. */
    public Builder healthCheckInterval(Duration interval) {
      this.healthCheckInterval = interval;
      return this;
    }

    /**
     * Consecutive failed pings that mark a shard dead. Default 3. A failed operation marks it dead
     * at once.
     */
    public Builder deadAfterFailures(int failures) {
      this.deadAfterFailures = failures;
      return this;
    }

    /** Consecutive good pings that mark a dead shard live again. Default 3. */
    public Builder liveAfterSuccesses(int successes) {
      this.liveAfterSuccesses = successes;
      return this;
    }

    /** How long to wait for a TCP connection to a shard. Default 2 s. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /** How long to wait for a reply. Default 5 s. */
    public Builder socketTimeout(Duration timeout) {
      this.socketTimeout = timeout;
      return this;
    }

    /** How long a request waits for a free pooled connection. Default 5 s. */
    public Builder borrowTimeout(Duration timeout) {
      this.borrowTimeout = timeout;
      return this;
    }

    /** Validates the settings, connects lazily and starts the health checks. */
    public RedisQueueStore build() {
      validate(shards);
      Objects.requireNonNull(keyPrefix, "keyPrefix");
      if (keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
        throw new IllegalArgumentException(
            "keyPrefix '" + keyPrefix + "' must not contain '{' or '}'");
      }
      if (poolSize < 1) {
        throw new IllegalArgumentException("poolSize must be >= 1, was " + poolSize);
      }
      requirePositive("healthCheckInterval", healthCheckInterval);
      requirePositive("connectTimeout", connectTimeout);
      requirePositive("socketTimeout", socketTimeout);
      requirePositive("borrowTimeout", borrowTimeout);
      if (deadAfterFailures < 1) {
        throw new IllegalArgumentException(
            "deadAfterFailures must be >= 1, was " + deadAfterFailures);
      }
      if (liveAfterSuccesses < 1) {
        throw new IllegalArgumentException(
            "liveAfterSuccesses must be >= 1, was " + liveAfterSuccesses);
      }
      return new RedisQueueStore(this);
    }

    private static void requirePositive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero() || value.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            name + " must be between 1 ms and 24 days, was " + value);
      }
    }
  }
}
