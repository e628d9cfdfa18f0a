package dev.flipper.launcher.modes;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.QueueConfig;
import dev.flipper.config.StorageConfig;
import dev.flipper.launcher.Daemon;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.redis.RedisQueueStore;
import dev.flipper.queue.redis.RedisShardConfig;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.spi.ShardStore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code queue} mode: opens the store that {@code storage} describes, builds the {@link QueueService}
 * on it and runs the {@link QueueMonitor}. The Thrift server that exposes the service comes with its own
 * issue; until then this mode keeps the store healthy (time-outs and GC) and reports on /health. Ready once
 * the store is open, at least one shard is healthy and the monitor runs. Thread-safe.
 */
public final class QueueModeDaemon implements Daemon {
  private static final Logger log = LoggerFactory.getLogger(QueueModeDaemon.class);

  private final FlipperConfig config;
  private final MetricRegistry metrics;
  private volatile QueueStore store;
  private volatile QueueService service;
  private volatile QueueMonitor monitor;

  public QueueModeDaemon(FlipperConfig config, MetricRegistry metrics) {
    this.config = config;
    this.metrics = metrics;
  }

  @Override
  public synchronized void start() {
    if (store != null) {
      throw new IllegalStateException("the queue mode is already started");
    }
    QueueConfig queue = config.queue();
    QueueStore opened = openStore(config.storage());
    try {
      service =
          QueueService.builder(opened)
              .priorityLevels(queue.priorityLevels())
              .maxBodyBytes(queue.maxBodyBytes())
              .adminPasswordHash(queue.adminPasswordHash())
              .serverId(serverId(queue.port()))
              .build();
      QueueMonitor started =
          QueueMonitor.builder(opened)
              .claimTimeout(queue.claimTimeout())
              .succeededTtl(queue.succeededTtl())
              .failedTtl(queue.failedTtl())
              .batchSize(queue.monitorBatchSize())
              .interval(queue.monitorInterval())
              .build();
      started.start();
      monitor = started;
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    store = opened;
    metrics.register("queue.shards.total", (Gauge<Integer>) () -> shardCount(false));
    metrics.register("queue.shards.healthy", (Gauge<Integer>) () -> shardCount(true));
  }

  /** The queue service, for the Thrift server; null until started. */
  public QueueService service() {
    return service;
  }

  @Override
  public Map<String, Boolean> readiness() {
    Map<String, Boolean> ready = new LinkedHashMap<>();
    ready.put("store", store != null);
    ready.put("shards", store != null && shardCount(true) > 0);
    ready.put("monitor", monitor != null);
    return ready;
  }

  /** Stops the monitor (waiting for a run in progress), then closes the store's connections. */
  @Override
  public synchronized void close() {
    QueueMonitor m = monitor;
    monitor = null;
    if (m != null) {
      m.close();
    }
    QueueStore s = store;
    store = null;
    if (s != null) {
      s.close();
    }
  }

  private int shardCount(boolean healthyOnly) {
    QueueStore s = store;
    if (s == null) {
      return 0;
    }
    int count = 0;
    for (ShardStore shard : s.shards()) {
      if (!healthyOnly || shard.healthy()) {
        count++;
      }
    }
    return count;
  }

  private static QueueStore openStore(StorageConfig storage) {
    return switch (storage.backend()) {
      case JDBC -> JdbcQueueStore.builder()
          .shards(storage.jdbc().shards().stream()
              .map(s -> new JdbcShardConfig(s.name(), s.url(), s.user(), s.password(), s.dequeueOnly()))
              .toList())
          .poolSize(storage.jdbc().poolSize())
          .build();
      case REDIS -> RedisQueueStore.builder()
          .shards(storage.redis().shards().stream()
              .map(s -> new RedisShardConfig(s.name(), s.host(), s.port(), s.database(), s.password(), s.dequeueOnly()))
              .toList())
          .keyPrefix(storage.redis().keyPrefix())
          .build();
    };
  }

  /** host:port, as PinLater named servers in claim descriptors. */
  private static String serverId(int port) {
    try {
      return InetAddress.getLocalHost().getHostName() + ":" + port;
    } catch (UnknownHostException e) {
      log.debug("no local host name; using localhost in the server id", e);
      return "localhost:" + port;
    }
  }
}
