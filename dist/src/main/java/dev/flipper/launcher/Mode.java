package dev.flipper.launcher;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.modes.QueueModeDaemon;
import dev.flipper.launcher.modes.WorkflowDaemons;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * The daemons the launcher can run, in start order (the queue first, the UI last; stop is the reverse).
 * Several may share one JVM; each keeps its own metric registry and admin port.
 */
public enum Mode {
  QUEUE("queue", c -> c.queue().adminPort(), QueueModeDaemon::new),
  MASTER("master", c -> c.master().adminPort(), WorkflowDaemons::master),
  SCHEDULER("scheduler", c -> c.scheduler().adminPort(), WorkflowDaemons::scheduler),
  WORKERS("workers", c -> c.workers().adminPort(), WorkflowDaemons::workers),
  UI("ui", c -> c.ui().adminPort(), WorkflowDaemons::ui);

  /** Shorthand for every mode. */
  public static final String ALL = "all";

  private final String modeName;
  private final ToIntFunction<FlipperConfig> adminPort;
  private final BiFunction<FlipperConfig, MetricRegistry, Daemon> factory;

  Mode(
      String modeName,
      ToIntFunction<FlipperConfig> adminPort,
      BiFunction<FlipperConfig, MetricRegistry, Daemon> factory) {
    this.modeName = modeName;
    this.adminPort = adminPort;
    this.factory = factory;
  }

  /** The name used on the command line, in logs and in {@code {mode}}. */
  public String modeName() {
    return modeName;
  }

  public int adminPort(FlipperConfig config) {
    return adminPort.applyAsInt(config);
  }

  /** A new, not yet started daemon for this mode. */
  public Daemon create(FlipperConfig config, MetricRegistry metrics) {
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
