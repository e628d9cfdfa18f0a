package dev.flipper.launcher;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.admin.AdminRoute;
import dev.flipper.config.AdminConfig;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.modes.QueueModeDaemon;
import dev.flipper.launcher.modes.SchedulerModeDaemon;
import dev.flipper.launcher.modes.TokenStores;
import dev.flipper.launcher.modes.WorkersModeDaemon;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The daemons the launcher can run, in start order (the queue first, the UI last; stop is the reverse).
 * Several may share one JVM; each keeps its own metric registry and admin port.
 */
public enum Mode {
  QUEUE("queue", x -> new ModeDaemon<>(new QueueModeDaemon(x.config(), x.metrics()), FlipperConfig::storage)),
  MASTER("master", x -> new ModeDaemon<>(
      new MasterDaemon(x.config().master(), TokenStores.open(x.config()), x.metrics()), FlipperConfig::master)),
  SCHEDULER("scheduler", x -> new ModeDaemon<>(
      new SchedulerModeDaemon(x.config(), x.metrics(), x.localMasterPort()), FlipperConfig::scheduler)),
  WORKERS("workers",
      x -> new ModeDaemon<>(
          new WorkersModeDaemon(x.config(), x.metrics(), x.adminPort(), x.localMasterPort()), FlipperConfig::workers),
      WorkersModeDaemon::adminRoutes),
  UI("ui", x -> new ModeDaemon<>(new UiDaemon(x.config().ui(), x.config().uiAuth(), x.masterPort(),
      x.uiQueueServers(), FileRateLimits.of(x.config().queue().rateLimitFile()), x.metrics()), FlipperConfig::ui));

  /**
   * What a mode's daemon is built from.
   *
   * @param adminPort the port its admin server is bound to (the workers put it into their log URLs)
   * @param localMasterPort the port of the master started before in this JVM, 0 = none
   * @param localQueuePort the Thrift port of the queue server started before in this JVM, 0 = none
   */
  record Context(FlipperConfig config, MetricRegistry metrics, int adminPort, int localMasterPort,
      int localQueuePort) {
    /** master.port, or with 0 the port of the master started in this JVM (a demo on free ports). */
    int masterPort() {
      return config.master().port() != 0 ? config.master().port() : localMasterPort;
    }

    /** ui.queueServers (or its server-set file), or else the queue server started in this JVM (a demo). */
    QueueServers uiQueueServers() {
      QueueServers configured = config.uiQueueServers();
      return configured.configured() || localQueuePort == 0 ? configured
          : QueueServers.of(ModeRunner.reachableHost(config.queue().bindAddress()) + ":" + localQueuePort);
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

  Mode(String modeName, Function<Context, ModeDaemon<?>> factory,
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
   * Extra routes of this mode's admin server (the workers' job logs, read and deleted). They depend on the
   * config only, since the admin server starts before the daemon is created.
   */
  List<AdminRoute> adminRoutes(FlipperConfig config) {
    return adminRoutes.apply(config);
  }

  /**
   * The config keys that running daemons of these modes apply when the config file changes: the queue's shards
   * (same backend). Every other key takes effect at the next start.
   */
  static Set<String> liveKeys(List<Mode> modes) {
    return modes.contains(QUEUE) ? Set.of("storage.jdbc.shards", "storage.redis.shards") : Set.of();
  }

  /** A new, not yet started daemon for this mode (the master's store is opened here). */
  ModeDaemon<?> create(Context context) {
    return factory.apply(context);
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
          modes.add(Arrays.stream(values())
              .filter(m -> m.modeName.equals(name))
              .findFirst()
              .orElseThrow(() -> new IllegalArgumentException(
                  "unknown mode '" + raw.strip() + "' (modes: " + validNames() + ")")));
        }
      }
    }
    if (modes.isEmpty()) {
      throw new IllegalArgumentException("no mode given (modes: " + validNames() + ")");
    }
    return new ArrayList<>(modes);
  }

  /** How a set of modes is named in log lines and {@code {mode}}: {@code queue}, {@code master-ui}, {@code all}. */
  public static String label(List<Mode> modes) {
    if (modes.size() == values().length) {
      return ALL;
    }
    return modes.stream().map(Mode::modeName).collect(Collectors.joining("-"));
  }

  static String validNames() {
    return Arrays.stream(values()).map(Mode::modeName).collect(Collectors.joining(", ")) + ", " + ALL;
  }
}
