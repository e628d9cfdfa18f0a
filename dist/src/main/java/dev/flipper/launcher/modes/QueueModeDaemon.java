package dev.flipper.launcher.modes;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.metrics.QueueBacklogMetrics;
import dev.flipper.admin.metrics.QueueMonitorMetrics;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.QueueConfig;
import dev.flipper.config.StorageConfig;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.queue.spi.QueueStore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code queue} mode: opens the store that {@code storage} describes, serves the {@link QueueService}
 * over PinLater's Thrift protocol and runs the {@link QueueMonitor} (claim time-outs, GC). Ready once the
 * store is open, at least one shard is healthy, the server listens and the monitor runs. Shard changes in
 * the config file apply without a restart. Thread-safe.
 */
public final class QueueModeDaemon implements Daemon<StorageConfig> {
  private static final Logger log = LoggerFactory.getLogger(QueueModeDaemon.class);

  private final MetricRegistry metrics;
  private final QueueConfig queue;
  private volatile StorageConfig storage;
  private volatile QueueStore store;
  private volatile QueueMonitor monitor;
  private volatile QueueServer server;

  public QueueModeDaemon(FlipperConfig config, MetricRegistry metrics) {
    this.metrics = metrics;
    this.queue = config.queue();
    this.storage = config.storage();
  }

  @Override
  public synchronized void start() {
    if (store != null) {
      throw new IllegalStateException("the queue mode is already started");
    }
    QueueStore opened = QueueStores.open(storage);
    try {
      QueueService service = QueueService.builder(opened)
          .priorityLevels(queue.priorityLevels())
          .maxBodyBytes(queue.maxBodyBytes())
          .bodyFilterBudgets(queue.bodyFilterStepsPerBody(), queue.bodyFilterTimePerCall())
          .adminPasswordHash(queue.adminPasswordHash())
          .serverId(serverId(queue.port()))
          .build();
      QueueMonitor startedMonitor = QueueMonitor.builder(opened)
          .claimTimeout(queue.claimTimeout())
          .succeededTtl(queue.succeededTtl())
          .failedTtl(queue.failedTtl())
          .batchSize(queue.monitorBatchSize())
          .interval(queue.monitorInterval())
          .build();
      startedMonitor.start();
      monitor = startedMonitor;
      server = QueueServer.builder(service)
          .bindHost(queue.bindAddress())
          .port(queue.port())
          .maxFrameBytes(queue.maxFrameBytes())
          .rateLimitFile(optionalPath(queue.rateLimitFile()))
          .serverSetFile(optionalPath(queue.serverSetFile()))
          .longPollTimeout(queue.longPollTimeout())
          .directCallLimit(Duration.ofNanos(queue.directCallLimitMicros() * 1_000L))
          .idleTimeout(queue.idleTimeout())
          .frameReadTimeout(queue.frameReadTimeout())
          .metrics(metrics)
          .build()
          .start();
      metrics.register("queue.backlog", new QueueBacklogMetrics(service, Clock.systemUTC()));
      metrics.register("queue.monitor", new QueueMonitorMetrics(startedMonitor));
    } catch (RuntimeException e) {
      closeComponents(opened);
      throw e;
    }
    store = opened;
    metrics.register("queue.shards.total", (Gauge<Integer>) () -> shardCount(false));
    metrics.register("queue.shards.healthy", (Gauge<Integer>) () -> shardCount(true));
  }

  /** The Thrift port served, 0 before start. */
  public int port() {
    QueueServer s = server;
    return s == null ? 0 : s.port();
  }

  @Override
  public List<String> endpoints() {
    QueueServer s = server;
    return s == null ? List.of() : List.of("thrift port " + s.port());
  }

  @Override
  public Map<String, Boolean> readiness() {
    Map<String, Boolean> ready = new LinkedHashMap<>();
    ready.put("store", store != null);
    ready.put("shards", store != null && shardCount(true) > 0);
    ready.put("monitor", monitor != null);
    ready.put("thrift", server != null && server.isRunning());
    return ready;
  }

  /** Applies shard changes of the same backend; a changed backend waits for a restart. */
  @Override
  public synchronized void reconfigure(StorageConfig changed) {
    QueueStore s = store;
    if (s == null || Objects.equals(changed, storage)) {
      return;
    }
    if (QueueStores.reconfigure(s, changed)) {
      storage = changed;
      log.info("storage shards reconfigured: {} shard(s) now", s.shards().size());
    } else {
      log.warn("storage.backend changed from {} to {}; restart the queue daemon to switch backends",
          storage.backend(), changed.backend());
    }
  }

  /** Stops taking calls (in-flight calls finish), then stops the monitor, then closes the store. */
  @Override
  public synchronized void close() {
    QueueStore s = store;
    store = null;
    closeComponents(s);
  }

  private void closeComponents(QueueStore s) {
    QueueServer srv = server;
    server = null;
    if (srv != null) {
      srv.close();
    }
    QueueMonitor m = monitor;
    monitor = null;
    if (m != null) {
      m.close();
    }
    if (s != null) {
      s.close();
    }
  }

  private int shardCount(boolean healthyOnly) {
    QueueStore s = store;
    if (s == null) {
      return 0;
    }
    return (int) s.shards().stream().filter(shard -> !healthyOnly || shard.healthy()).count();
  }

  private static Path optionalPath(String path) {
    return path.isEmpty() ? null : Path.of(path);
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
