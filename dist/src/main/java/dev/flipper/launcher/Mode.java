package dev.flipper.launcher;

import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminRoute;
import dev.flipper.admin.LogCleanupEndpoint;
import dev.flipper.admin.LogEndpoint;
import dev.flipper.admin.metrics.QueueBacklogMetrics;
import dev.flipper.admin.metrics.QueueMonitorMetrics;
import dev.flipper.config.AdminConfig;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.StorageConfig;
import dev.flipper.launcher.modes.MasterClients;
import dev.flipper.launcher.modes.NoMaster;
import dev.flipper.launcher.modes.QueueStores;
import dev.flipper.launcher.modes.TokenStores;
import dev.flipper.queue.server.QueueDaemon;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.tls.TlsIdentity;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.worker.WorkerDaemon;
import dev.flipper.workflow.worker.exec.LogCleaner;
import dev.flipper.workflow.worker.exec.LogFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemons the launcher can run, in start order (the queue first, the UI last; stop is the
 * reverse). Several may share one JVM; each keeps its own metric registry and admin port. Each
 * mode's daemon is the one its module gives; the launcher only reads the config, opens the stores
 * and clients of the master that the daemon takes, and closes the clients after it ({@link
 * ModeDaemon#close}).
 */
public enum Mode {
  QUEUE("queue", Mode::queue),
  MASTER("master", Mode::master),
  SCHEDULER("scheduler", Mode::scheduler),
  WORKERS("workers", Mode::workers, Mode::workerLogRoutes),
  UI("ui", Mode::ui);

  private static final Logger log = LoggerFactory.getLogger(Mode.class);

  /**
   * What a mode's daemon is built from.
   *
   * @param adminPort the port its admin server is bound to (the workers put it into their log URLs)
   * @param localMasterPort the port of the master started before in this JVM, 0 = none
   * @param localQueuePort the Thrift port of the queue server started before in this JVM, 0 = none
   */
  record Context(
      FlipperConfig config,
      MetricRegistry metrics,
      int adminPort,
      int localMasterPort,
      int localQueuePort) {
    /** master.port, or with 0 the port of the master started in this JVM (a demo on free ports). */
    int masterPort() {
      return config.master().port() != 0 ? config.master().port() : localMasterPort;
    }

    /**
     * ui.queueServers (or its server-set file), or else the queue server started in this JVM (a
     * demo).
     */
    QueueServers uiQueueServers() {
      QueueServers configured = config.uiQueueServers();
      return configured.configured() || localQueuePort == 0
          ? configured
          : QueueServers.of(
                  ModeRunner.reachableHost(config.queue().bindAddress()) + ":" + localQueuePort)
              .withAdminPassword(configured.queueAdminPassword());
    }
  }

  /** Shorthand for every mode. */
  public static final String ALL = "all";

  private final String modeName;
  private final Function<Context, ModeDaemon<?>> factory;
  private final Function<FlipperConfig, List<AdminRoute>> adminRoutes;

  Mode(String modeName, Function<Context, ModeDaemon<?>> factory) {
    this(modeName, factory, config -> List.of());
  }

  Mode(
      String modeName,
      Function<Context, ModeDaemon<?>> factory,
      Function<FlipperConfig, List<AdminRoute>> adminRoutes) {
    this.modeName = modeName;
    this.factory = factory;
    this.adminRoutes = adminRoutes;
  }

  /** The name used on the command line, in logs and in {@code {mode}}. */
  public String modeName() {
    return modeName;
  }

  /** Where this mode's admin server listens: its section's bindAddress and adminPort. */
  public AdminConfig admin(FlipperConfig config) {
    return config.admin(modeName);
  }

  /**
   * Extra routes of this mode's admin server (the workers' job logs, read and deleted). They depend
   * on the config only, since the admin server starts before the daemon is created.
   */
  List<AdminRoute> adminRoutes(FlipperConfig config) {
    return adminRoutes.apply(config);
  }

  /**
   * The config keys that running daemons of these modes apply when the config file changes: the
   * queue's shards (same backend). Every other key takes effect at the next start.
   */
  static Set<String> liveKeys(List<Mode> modes) {
    return modes.contains(QUEUE) ? Set.of("storage.jdbc.shards", "storage.redis.shards") : Set.of();
  }

  /**
   * A new, not yet started daemon for this mode (the stores and clients of the master are opened
   * here).
   */
  ModeDaemon<?> create(Context context) {
    return factory.apply(context);
  }

  /**
   * The queue daemon over the store that {@code storage} describes, which it owns; shard changes in
   * the config file apply without a restart ({@link QueueStores#reconfigure}). Its labelled metrics
   * are the admin server's own.
   */
  private static ModeDaemon<?> queue(Context x) {
    StorageConfig storage = x.config().storage();
    TlsIdentity tls = x.config().security().daemonIdentity("queue").orElse(null);
    QueueStore store = QueueStores.open(storage);
    try {
      QueueDaemon<StorageConfig> daemon =
          new QueueDaemon<>(
                  x.config().queue(), store, storage, QueueStores::reconfigure, x.metrics())
              .tls(tls)
              .startedMetrics(
                  (service, monitor) -> {
                    Map<String, Metric> metrics = new LinkedHashMap<>();
                    metrics.put(
                        "queue.backlog", new QueueBacklogMetrics(service, Clock.systemUTC()));
                    metrics.put("queue.monitor", new QueueMonitorMetrics(monitor));
                    return metrics;
                  });
      return new ModeDaemon<>(daemon, FlipperConfig::storage);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Checks the address this mode listens on (its section's bindAddress, where its admin server and
   * service port listen) with {@code security}: a non-loopback address needs TLS or {@code
   * security.insecure} ({@link dev.flipper.tls.ListenRule}). IllegalStateException saying what to
   * configure.
   */
  void checkListen(FlipperConfig config) {
    config.security().checkListen(modeName, admin(config).bindAddress());
  }

  /**
   * The master over the token store the config names, which it owns; with {@code security.tls} it
   * serves mutual TLS as the {@code master} certificate.
   */
  private static ModeDaemon<?> master(Context x) {
    Optional<TlsIdentity> tls = x.config().security().daemonIdentity("master");
    MasterDaemon master =
        new MasterDaemon(x.config().master(), TokenStores.open(x.config()), x.metrics());
    tls.ifPresent(master::tls);
    return new ModeDaemon<>(master, FlipperConfig::master);
  }

  /**
   * The scheduler with a Thrift client of the master ({@code scheduler.masterHost}, {@code
   * master.port}) that reconnects by itself. With {@code master.port} 0 and no master in this JVM
   * there is nothing to connect to, and the scheduler only reports ready (saying so in its log).
   * With {@code email.enabled} it mails the too-many-instances notice, linking to {@code
   * ui.baseUrl}.
   */
  private static ModeDaemon<?> scheduler(Context x) {
    SchedulerDaemon.Config settings = x.config().scheduler();
    TokenMasterClient client =
        MasterClients.reconnecting(
            settings.masterHost(),
            x.masterPort(),
            x.config().security().daemonIdentity("scheduler"));
    if (client != null) {
      log.info(
          "scheduler: master at {}",
          client.address()); // endpoints() are where a daemon serves; this it calls
    }
    return withClient(
        client,
        () ->
            new ModeDaemon<>(
                new SchedulerDaemon(
                    x.metrics(),
                    client,
                    x.config().email(),
                    x.config().uiLinks().baseUrl(),
                    settings),
                config -> null,
                client)); // it changes nothing at run time
  }

  /**
   * The workers with a Thrift client of the master ({@code workers.masterHost}, {@code
   * master.port}) that reconnects by itself, and log URLs naming the admin port, where {@link
   * #workerLogRoutes} serves the job logs under {@code /logs/}; with {@code email.enabled}, e-mail
   * about job failures, warn time-outs and instance ends.
   */
  private static ModeDaemon<?> workers(Context x) {
    WorkerDaemon.Config settings = x.config().workers();
    TokenMasterClient client =
        MasterClients.reconnecting(
            settings.masterHost(), x.masterPort(), x.config().security().daemonIdentity("workers"));
    return withClient(
        client,
        () ->
            new ModeDaemon<>(
                new WorkerDaemon(
                        settings, client != null ? client : NoMaster.forWorkers(), x.metrics())
                    .serveLogsAt(x.config().admin("workers").bindAddress(), x.adminPort())
                    .mailWith(x.config().email(), x.config().uiLinks()),
                FlipperConfig::workers,
                client));
  }

  /**
   * The admin routes of the workers: their job logs under {@code workers.logDir}, read by {@link
   * LogEndpoint} and deleted by {@link LogCleanupEndpoint}.
   */
  private static List<AdminRoute> workerLogRoutes(FlipperConfig config) {
    try {
      LogFiles logs = new LogFiles(Path.of(config.workers().logDir()));
      return List.of(
          new LogEndpoint(logs).route(), new LogCleanupEndpoint(new LogCleaner(logs)).route());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "workers.logDir " + config.workers().logDir() + " cannot be created: " + e, e);
    }
  }

  /**
   * The UI with a Thrift client of the master ({@code ui.masterHost}, {@code master.port}) that
   * fails fast. Port 0 (master.port 0 with no master in this process) starts the UI anyway; its
   * pages then say what to configure. With {@code security.tls} it presents the {@code ui}
   * certificate to the master and to the workers it reads logs from.
   */
  private static ModeDaemon<?> ui(Context x) {
    UiDaemon.Config settings = x.config().ui();
    Optional<TlsIdentity> tls = x.config().security().daemonIdentity("ui");
    TokenMasterClient client = MasterClients.quick(settings.masterHost(), x.masterPort(), tls);
    return withClient(
        client,
        () ->
            new ModeDaemon<>(
                new UiDaemon(
                    settings,
                    x.config().uiAuth(),
                    client != null ? client : NoMaster.forUi(),
                    settings.masterHost() + ":" + x.masterPort(),
                    x.uiQueueServers(),
                    FileRateLimits.of(x.config().queue().rateLimitFile()),
                    x.metrics(),
                    tls.orElse(null)),
                FlipperConfig::ui,
                client));
  }

  /** {@code create}'s daemon, closing {@code client} (if any) when it cannot be created. */
  private static ModeDaemon<?> withClient(
      TokenMasterClient client, Supplier<ModeDaemon<?>> create) {
    try {
      return create.get();
    } catch (RuntimeException e) {
      if (client != null) {
        client.close();
      }
      throw e;
    }
  }

  /**
   * The modes named (each may be a comma-separated list), in start order, without repeats.
   *
   * @throws IllegalArgumentException naming the unknown mode and listing the valid ones
   */
  public static List<Mode> parse(List<String> names) {
    Set<Mode> modes = EnumSet.noneOf(Mode.class);
    for (String list : names) {
      for (String raw : list.split(",")) {
        String name = raw.strip().toLowerCase(Locale.ROOT);
        if (name.equals(ALL)) {
          modes.addAll(EnumSet.allOf(Mode.class));
        } else if (!name.isEmpty()) {
          modes.add(
              Arrays.stream(values())
                  .filter(m -> m.modeName.equals(name))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "unknown mode '" + raw.strip() + "' (modes: " + validNames() + ")")));
        }
      }
    }
    if (modes.isEmpty()) {
      throw new IllegalArgumentException("no mode given (modes: " + validNames() + ")");
    }
    return new ArrayList<>(modes);
  }

  /**
   * How a set of modes is named in log lines and {@code {mode}}: {@code queue}, {@code master-ui},
   * {@code all}.
   */
  public static String label(List<Mode> modes) {
    if (modes.size() == values().length) {
      return ALL;
    }
    return modes.stream().map(Mode::modeName).collect(Collectors.joining("-"));
  }

  static String validNames() {
    return Arrays.stream(values()).map(Mode::modeName).collect(Collectors.joining(", "))
        + ", "
        + ALL;
  }
}
