package dev.flipper.queue.mysql;

import dev.flipper.queue.QueueException;
import dev.flipper.queue.mysql.internal.JdbcShardStore;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flipper's job store on MySQL 8, MariaDB 10.6+ or embedded H2 (MySQL mode): one database per
 * shard, each with its own HikariCP pool. The schema is created and migrated automatically.
 * Thread-safe; shards can be added, removed or made dequeue-only while running with {@link
 * #reconfigure}.
 *
 * <pre>{@code
 * JdbcQueueStore store = JdbcQueueStore.builder()
 *     .shards(List.of(new JdbcShardConfig("1", "jdbc:mysql://db1:3306/flipper", "flipper", "secret", false)))
 *     .poolSize(10)
 *     .build();
 * }</pre>
 */
public final class JdbcQueueStore implements QueueStore {
  private static final Logger log = LoggerFactory.getLogger(JdbcQueueStore.class);

  /** Requests already holding a removed shard get this long to finish before its pool closes. */
  private static final Duration REMOVED_SHARD_GRACE = Duration.ofSeconds(5);

  /**
   * Connections per shard unless {@link Builder#poolSize} says otherwise; the config's
   * storage.jdbc.poolSize.
   */
  public static final int DEFAULT_POOL_SIZE = 10;

  private final JdbcShardStore.PoolSettings settings;
  private final Object reconfigureLock = new Object();
  private volatile List<JdbcShardStore> shards;
  private final Set<JdbcShardStore> closing =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  private JdbcQueueStore(Builder builder) {
    this.settings =
        new JdbcShardStore.PoolSettings(
            builder.poolSize, builder.connectTimeout, builder.unhealthyCooldown);
    List<JdbcShardStore> created = new ArrayList<>();
    try {
      for (JdbcShardConfig config : builder.shards) {
        created.add(newShard(config));
      }
    } catch (RuntimeException e) {
      created.forEach(JdbcShardStore::close);
      throw e;
    }
    failOnPermanentOpenFailure(created);
    this.shards = List.copyOf(created);
    log.info(
        "JDBC queue store: shards {}, pool size {}, connect time-out {} ms, unhealthy cool-down {} ms",
        builder.shards,
        settings.poolSize(),
        settings.connectTimeout().toMillis(),
        settings.unhealthyCooldown().toMillis());
    initialize(created);
    // A shard that could not be reached now copies the other shards' queues when it is first
    // reached.
    created.forEach(s -> s.copyQueuesOnInit(true));
  }

  /**
   * At start-up a shard that can never be opened (a URL setting the driver refuses, bad
   * credentials, no such database) fails the build, naming the shard and the driver's message; a
   * shard that is down for now is only logged and set up when first reached.
   */
  private static void failOnPermanentOpenFailure(List<JdbcShardStore> created) {
    for (JdbcShardStore shard : created) {
      java.util.Optional<java.sql.SQLException> failure = shard.database().permanentOpenFailure();
      if (failure.isPresent()) {
        created.forEach(JdbcShardStore::close);
        throw new IllegalArgumentException(
            "shard '"
                + shard.name()
                + "' ("
                + shard.database().maskedUrl()
                + ") cannot be opened, and retrying will not help: "
                + failure.get().getMessage()
                + "; check its url, user and password (storage.jdbc.shards)",
            failure.get());
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public List<ShardStore> shards() {
    return Collections.unmodifiableList(shards);
  }

  /**
   * Applies a new shard list: shards whose name, URL and credentials are unchanged keep their pool
   * and take the new dequeue-only flag; new shards get the schema and every queue the other shards
   * have; removed shards are closed shortly after the swap. A new shard that cannot be reached is
   * added anyway, reports unhealthy, and is set up when first reached. Never fails because of one
   * shard.
   */
  public void reconfigure(List<JdbcShardConfig> newShards) {
    List<JdbcShardConfig> configs = Builder.validated(newShards);
    synchronized (reconfigureLock) {
      Map<String, JdbcShardStore> current = new LinkedHashMap<>();
      shards.forEach(s -> current.put(s.name(), s));
      List<JdbcShardStore> next = new ArrayList<>();
      List<JdbcShardStore> added = new ArrayList<>();
      for (JdbcShardConfig config : configs) {
        JdbcShardStore existing = current.get(config.name());
        if (existing != null && existing.config().sameDatabase(config)) {
          next.add(existing);
        } else {
          JdbcShardStore shard = newShard(config);
          shard.copyQueuesOnInit(true);
          added.add(shard);
          next.add(shard);
        }
      }
      initialize(added);
      for (int i = 0; i < configs.size(); i++) {
        next.get(i).setDequeueOnly(configs.get(i).dequeueOnly());
      }
      Set<JdbcShardStore> kept = Collections.newSetFromMap(new IdentityHashMap<>());
      kept.addAll(next);
      List<JdbcShardStore> removed =
          current.values().stream().filter(s -> !kept.contains(s)).toList();
      shards = List.copyOf(next);
      log.info(
          "JDBC queue store reconfigured: shards {}; added {}, removed {}",
          configs,
          added.stream().map(JdbcShardStore::name).toList(),
          removed.stream().map(JdbcShardStore::name).toList());
      closeLater(removed);
    }
  }

  private JdbcShardStore newShard(JdbcShardConfig config) {
    return new JdbcShardStore(config, settings, this::queuesOfOtherShards);
  }

  /** The union of the queues of every reachable, set-up shard other than {@code self}. */
  private Set<String> queuesOfOtherShards(ShardStore self) {
    Set<String> queues = new TreeSet<>();
    for (JdbcShardStore shard : shards) {
      if (shard == self || !shard.isInitialized() || !shard.healthy()) {
        continue;
      }
      try {
        queues.addAll(shard.queueNames());
      } catch (QueueException e) {
        log.warn(
            "could not list the queues of shard '{}' to copy them: {}",
            shard.name(),
            e.getMessage());
      }
    }
    return queues;
  }

  /** Sets up the shards in parallel; one that fails is logged and tried again on first use. */
  private static void initialize(List<JdbcShardStore> toInitialize) {
    if (toInitialize.isEmpty()) {
      return;
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            Math.min(toInitialize.size(), 8),
            r -> {
              Thread t = new Thread(r, "flipper-shard-init");
              t.setDaemon(true);
              return t;
            });
    try {
      CompletableFuture.allOf(
              toInitialize.stream()
                  .map(
                      shard ->
                          CompletableFuture.runAsync(
                              () -> {
                                try {
                                  shard.initialize();
                                } catch (QueueException e) {
                                  log.warn(
                                      "shard '{}' is not available yet and will be set up when first reached: {}",
                                      shard.name(),
                                      e.getMessage());
                                }
                              },
                              executor))
                  .toArray(CompletableFuture[]::new))
          .join();
    } finally {
      executor.shutdown();
    }
  }

  private void closeLater(List<JdbcShardStore> removed) {
    for (JdbcShardStore shard : removed) {
      closing.add(shard);
      CompletableFuture.runAsync(
          () -> {
            if (closing.remove(shard)) {
              shard.close();
            }
          },
          CompletableFuture.delayedExecutor(REMOVED_SHARD_GRACE.toMillis(), TimeUnit.MILLISECONDS));
    }
  }

  /** Closes every pool. */
  @Override
  public void close() {
    synchronized (reconfigureLock) {
      shards.forEach(JdbcShardStore::close);
      List<JdbcShardStore> pending;
      synchronized (closing) {
        pending = new ArrayList<>(closing);
        closing.clear();
      }
      pending.forEach(JdbcShardStore::close);
    }
  }

  @Override
  public String toString() {
    return "JdbcQueueStore" + shards;
  }

  /** Settings of a {@link JdbcQueueStore}; {@link #build()} validates them. Not thread-safe. */
  public static final class Builder {
    private List<JdbcShardConfig> shards = List.of();
    private int poolSize = DEFAULT_POOL_SIZE;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration unhealthyCooldown = Duration.ofSeconds(10);

    private Builder() {}

    /** The shards, in configuration order; at least one, unique names. */
    public Builder shards(List<JdbcShardConfig> newShards) {
      this.shards = newShards;
      return this;
    }

    /**
     * Connections per shard (maximum; at least 2, since migrations hold a lock on one). Default 10.
     */
    public Builder poolSize(int size) {
      this.poolSize = size;
      return this;
    }

    /**
     * How long to wait for a connection: a TCP connect, or a free pooled one. A call that finds
     * every pooled connection busy for this long fails with SHARD_BUSY (the shard stays healthy);
     * one that cannot connect fails with SHARD_CONNECTION_FAILED. Default 5 s, at least 500 ms. H2
     * file databases wait at least 30 s, since opening a database file can take that long.
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * After a connection failure the shard reports unhealthy and fails fast for this long. Default
     * 10 s.
     */
    public Builder unhealthyCooldown(Duration cooldown) {
      this.unhealthyCooldown = cooldown;
      return this;
    }

    public JdbcQueueStore build() {
      shards = validated(shards);
      if (poolSize < 2 || poolSize > 1000) {
        throw new IllegalArgumentException(
            "poolSize must be 2..1000 connections per shard, was " + poolSize);
      }
      Objects.requireNonNull(connectTimeout, "connectTimeout");
      if (connectTimeout.toMillis() < 500) {
        throw new IllegalArgumentException(
            "connectTimeout must be at least 500 ms, was " + connectTimeout.toMillis() + " ms");
      }
      Objects.requireNonNull(unhealthyCooldown, "unhealthyCooldown");
      if (unhealthyCooldown.isNegative()) {
        throw new IllegalArgumentException(
            "unhealthyCooldown must be >= 0, was " + DurationText.format(unhealthyCooldown));
      }
      return new JdbcQueueStore(this);
    }

    static List<JdbcShardConfig> validated(List<JdbcShardConfig> shards) {
      if (shards == null || shards.isEmpty()) {
        throw new IllegalArgumentException("a JDBC queue store needs at least one shard");
      }
      Set<String> names = new HashSet<>();
      for (JdbcShardConfig shard : shards) {
        Objects.requireNonNull(shard, "shard config");
        if (!names.add(shard.name())) {
          throw new IllegalArgumentException(
              "shard name '" + shard.name() + "' is used twice; names must be unique");
        }
        dev.flipper.jdbc.Dialect.forUrl(shard.url()); // rejects unsupported URLs now
      }
      return List.copyOf(shards);
    }
  }
}
