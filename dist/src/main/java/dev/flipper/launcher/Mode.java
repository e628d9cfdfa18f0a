package dev.flipper.launcher;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.AdminConfig;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.modes.QueueModeDaemon;
import dev.flipper.launcher.modes.TokenStores;
import dev.flipper.workflow.master.MasterDaemon;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * The daemons the launcher can run, in start order (the queue first, the UI last; stop is the reverse).
 * Several may share one JVM; each keeps its own metric registry and admin port.
 */
public enum Mode {
  QUEUE("queue", (c, m) -> new ModeDaemon<>(new QueueModeDaemon(c, m), FlipperConfig::storage)),
  MASTER("master",
      (c, m) -> new ModeDaemon<>(new MasterDaemon(c.master(), TokenStores.open(c), m), FlipperConfig::master)),
  SCHEDULER("scheduler", (c, m) -> new ModeDaemon<>(new SchedulerDaemon(m), ignored -> null)),
  WORKERS("workers", (c, m) -> new ModeDaemon<>(new WorkerDaemon(c.workers(), m), FlipperConfig::workers)),
  UI("ui", (c, m) -> new ModeDaemon<>(new UiDaemon(c.ui(), m), FlipperConfig::ui));

  /** Shorthand for every mode. */
  public static final String ALL = "all";

  private final String modeName;
  private final BiFunction<FlipperConfig, MetricRegistry, ModeDaemon<?>> factory;

  Mode(String modeName, BiFunction<FlipperConfig, MetricRegistry, ModeDaemon<?>> factory) {
    this.modeName = modeName;
    this.factory = factory;
  }

  /** The name used on the command line, in logs and in {@code {mode}}. */
  public String modeName() {
    return modeName;
  }

  /** Where this mode's admin server listens: its section's bindAddress and adminPort. */
  public AdminConfig admin(FlipperConfig config) {
    return config.admin(modeName);
  }

  /** A new, not yet started daemon for this mode (the master's store is opened here). */
  ModeDaemon<?> create(FlipperConfig config, MetricRegistry metrics) {
    return factory.apply(config, metrics);
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
