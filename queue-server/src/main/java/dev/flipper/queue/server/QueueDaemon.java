package dev.flipper.queue.server;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.lifecycle.Daemon;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.monitor.QueueMonitor;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.tls.TlsIdentity;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue daemon (mode {@code queue}): serves a {@link QueueService} over the {@link QueueStore}
 * it is given, through PinLater's Thrift protocol ({@link QueueServer}), and runs the {@link
 * QueueMonitor} (claim time-outs, GC). The launcher opens the store from its config and hands it
 * in, so this module needs no storage library; the daemon owns it: {@link #close()} closes it.
 * Ready once started, at least one shard is healthy, the server listens and the monitor runs.
 * Changed store settings (the shards) apply without a restart through the {@link StoreReconfigurer}
 * the launcher gives, which knows the store's type. Thread-safe; {@link #close()} is idempotent.
 *
 * @param <S> the settings the store was opened with (the launcher's {@code storage} section), which
 *     {@link #reconfigure} takes
 */
public final class QueueDaemon<S> implements Daemon<S> {
  private static final Logger log = LoggerFactory.getLogger(QueueDaemon.class);

  /**
   * The {@code queue} settings (the {@code queue} section of the launcher's config binds into it by
   * component name): those of the {@link QueueService}, its {@link QueueMonitor} and its {@link
   * QueueServer}. {@link #toString()} masks the password hash.
   *
   * @param bindAddress the address the Thrift port listens on
   * @param port the Thrift port; 0 = any free port (the server id still names the configured one)
   * @param rateLimitFile the rate-limit file ({@link RateLimitFile}); "" = none
   * @param serverSetFile the server-set file; "" = none
   * @param directCallLimitMicros how long a call may hold the selector thread ({@link
   *     QueueServer.Builder#directCallLimit})
   */
  public record Config(
      String bindAddress,
      int port,
      int priorityLevels,
      int maxBodyBytes,
      int maxFrameBytes,
      Duration claimTimeout,
      Duration succeededTtl,
      Duration failedTtl,
      Duration monitorInterval,
      int monitorBatchSize,
      String rateLimitFile,
      String serverSetFile,
      String adminPasswordHash,
      Duration longPollTimeout,
      int directCallLimitMicros,
      Duration idleTimeout,
      Duration frameReadTimeout,
      int bodyFilterStepsPerBody,
      Duration bodyFilterTimePerCall,
      int maxConnections,
      int maxConnectionsPerPeer,
      int maxConcurrentBodyFilters) {

    @Override
    public String toString() {
      return "QueueDaemon.Config[bindAddress="
          + bindAddress
          + ", port="
          + port
          + ", priorityLevels="
          + priorityLevels
          + ", maxBodyBytes="
          + maxBodyBytes
          + ", maxFrameBytes="
          + maxFrameBytes
          + ", claimTimeout="
          + claimTimeout
          + ", succeededTtl="
          + succeededTtl
          + ", failedTtl="
          + failedTtl
          + ", monitorInterval="
          + monitorInterval
          + ", monitorBatchSize="
          + monitorBatchSize
          + ", rateLimitFile="
          + rateLimitFile
          + ", serverSetFile="
          + serverSetFile
          + ", adminPasswordHash="
          + (adminPasswordHash.isEmpty() ? "" : "*****")
          + ", longPollTimeout="
          + longPollTimeout
          + ", directCallLimitMicros="
          + directCallLimitMicros
          + ", idleTimeout="
          + idleTimeout
          + ", frameReadTimeout="
          + frameReadTimeout
          + ", bodyFilterStepsPerBody="
          + bodyFilterStepsPerBody
          + ", bodyFilterTimePerCall="
          + bodyFilterTimePerCall
          + ", maxConnections="
          + maxConnections
          + ", maxConnectionsPerPeer="
          + maxConnectionsPerPeer
          + ", maxConcurrentBodyFilters="
          + maxConcurrentBodyFilters
          + "]";
    }
  }

  /**
   * Applies changed store settings to the open store: new shards open (and get every queue),
   * removed ones close.
   */
  @FunctionalInterface
  public interface StoreReconfigurer<S> {
    /**
     * @param current the settings the store runs with now
     * @return empty once applied; else why the running store cannot take them (for example another
     *     backend), logged as a warning: they wait for a restart
     */
    Optional<String> apply(QueueStore store, S current, S changed);
  }

  /**
   * Metrics that read the started service and monitor in a form the caller's exporter knows (the
   * launcher's Prometheus families with labels), registered at start by name in the daemon's
   * registry.
   */
  @FunctionalInterface
  public interface StartedMetrics {
    Map<String, Metric> of(QueueService service, QueueMonitor monitor);
  }

  private final Config config;
  private final QueueStore store;
  private final StoreReconfigurer<S> reconfigurer;
  private final MetricRegistry metrics;
  private StartedMetrics startedMetrics = (service, monitor) -> Map.of();
  private TlsIdentity tls;
  private volatile S storeSettings;

  /** The store between a successful start and close; null otherwise. */
  private volatile QueueStore open;

  private volatile boolean closed;
  private volatile QueueMonitor monitor;
  private volatile QueueServer server;

  /**
   * @param store the opened store, owned from now on: closed by {@link #close()} (also when never
   *     started)
   * @param storeSettings the settings {@code store} was opened with
   * @param reconfigurer how {@link #reconfigure} applies changed settings to {@code store}
   */
  public QueueDaemon(
      Config config,
      QueueStore store,
      S storeSettings,
      StoreReconfigurer<S> reconfigurer,
      MetricRegistry metrics) {
    this.config = Objects.requireNonNull(config, "config");
    this.store = Objects.requireNonNull(store, "store");
    this.storeSettings = storeSettings;
    this.reconfigurer = Objects.requireNonNull(reconfigurer, "reconfigurer");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Registers {@code metrics} over the service and monitor at start (default: none). Call before
   * {@link #start()}.
   */
  public synchronized QueueDaemon<S> startedMetrics(StartedMetrics metrics) {
    this.startedMetrics = Objects.requireNonNull(metrics, "metrics");
    return this;
  }

  /**
   * Serves mutual TLS as {@code identity} (the {@code queue} certificate), calls allowed by the
   * caller's role ({@link QueueServer.Builder#tls}); null (default): plain Thrift. Call before
   * {@link #start()}.
   */
  public synchronized QueueDaemon<S> tls(TlsIdentity identity) {
    this.tls = identity;
    return this;
  }

  public Config config() {
    return config;
  }

  /**
   * Builds the service, starts the monitor, then the server; on failure closes them and the store.
   */
  @Override
  public synchronized void start() {
    if (open != null) {
      throw new IllegalStateException("the queue daemon is already started");
    }
    if (closed) {
      throw new IllegalStateException("the queue daemon is closed");
    }
    try {
      QueueService service =
          QueueService.builder(store)
              .priorityLevels(config.priorityLevels())
              .maxBodyBytes(config.maxBodyBytes())
              .bodyFilterBudgets(config.bodyFilterStepsPerBody(), config.bodyFilterTimePerCall())
              .adminPasswordHash(config.adminPasswordHash())
              .serverId(serverId(config.port()))
              .build();
      QueueMonitor startedMonitor =
          QueueMonitor.builder(store)
              .claimTimeout(config.claimTimeout())
              .succeededTtl(config.succeededTtl())
              .failedTtl(config.failedTtl())
              .batchSize(config.monitorBatchSize())
              .interval(config.monitorInterval())
              .build();
      startedMonitor.start();
      monitor = startedMonitor;
      server =
          QueueServer.builder(service)
              .bindHost(config.bindAddress())
              .port(config.port())
              .maxFrameBytes(config.maxFrameBytes())
              .rateLimitFile(optionalPath(config.rateLimitFile()))
              .serverSetFile(optionalPath(config.serverSetFile()))
              .longPollTimeout(config.longPollTimeout())
              .directCallLimit(Duration.ofNanos(config.directCallLimitMicros() * 1_000L))
              .idleTimeout(config.idleTimeout())
              .frameReadTimeout(config.frameReadTimeout())
              .maxConnections(config.maxConnections())
              .maxConnectionsPerPeer(config.maxConnectionsPerPeer())
              .maxConcurrentBodyFilters(config.maxConcurrentBodyFilters())
              .metrics(metrics)
              .tls(tls)
              .build()
              .start();
      startedMetrics.of(service, startedMonitor).forEach(metrics::register);
    } catch (RuntimeException e) {
      closed = true;
      closeComponents();
      throw e;
    }
    open = store;
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
    QueueStore s = open;
    Map<String, Boolean> ready = new LinkedHashMap<>();
    ready.put("store", s != null);
    ready.put("shards", s != null && shardCount(true) > 0);
    ready.put("monitor", monitor != null);
    ready.put("thrift", server != null && server.isRunning());
    return ready;
  }

  /**
   * Applies changed store settings (the shards) to the running store; what it cannot take waits for
   * a restart.
   */
  @Override
  public synchronized void reconfigure(S changed) {
    QueueStore s = open;
    if (s == null || Objects.equals(changed, storeSettings)) {
      return;
    }
    Optional<String> refused = reconfigurer.apply(s, storeSettings, changed);
    if (refused.isEmpty()) {
      storeSettings = changed;
      log.info("storage shards reconfigured: {} shard(s) now", s.shards().size());
    } else {
      log.warn("{}", refused.get());
    }
  }

  /** Stops taking calls (in-flight calls finish), then stops the monitor, then closes the store. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    open = null;
    closeComponents();
  }

  private void closeComponents() {
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
    store.close();
  }

  private int shardCount(boolean healthyOnly) {
    QueueStore s = open;
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
