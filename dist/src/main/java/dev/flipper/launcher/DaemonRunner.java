package dev.flipper.launcher;

import dev.flipper.config.ConfigSummary;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.ModeRunner.ModeStartException;
import dev.flipper.launcher.logging.LoggingSetup;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs modes until SIGTERM or SIGINT, then stops them gracefully. Prints the lines scripts and
 * tests parse: one {@code flipper: <mode> ready, admin http://127.0.0.1:<port>/health} per mode,
 * then {@code flipper: stopped cleanly} at the end. Exit code 0 after a clean stop, 1 if a mode
 * failed to start or to stop.
 */
final class DaemonRunner {
  /** After a stop request, give up on graceful and halt after this long. */
  static final Duration STOP_DEADLINE = Duration.ofSeconds(60);

  private static final Logger log = LoggerFactory.getLogger(DaemonRunner.class);

  private DaemonRunner() {}

  /**
   * @param source where the config came from, for the start-up log line
   * @param file the config file, watched for changes while running; null for the built-in defaults
   * @param overrides the {@code --set} overrides, applied again to every reload of the file
   * @param onReady called once every mode is ready, e.g. to print what to try
   */
  static int run(
      FlipperConfig config,
      Path file,
      List<String> overrides,
      List<Mode> modes,
      PrintWriter out,
      PrintWriter err,
      Consumer<List<ModeRunner.Running>> onReady) {
    String source = file == null ? "(built-in defaults)" : file.toString();
    LoggingSetup.apply(config.logging(), Mode.label(modes));
    log.info(
        "flipper {} starting {} (pid {}), config {}: {}",
        VersionProvider.version(),
        Mode.label(modes),
        ProcessHandle.current().pid(),
        source,
        ConfigSummary.of(config, modes.stream().map(Mode::modeName).toList()));
    log.debug(
        "effective configuration (flipper config-check --print shows it as YAML): {}",
        config.values().toOneLine(true));
    StopSignal stop = new StopSignal(STOP_DEADLINE);
    stop.install();
    // A mode may end the process only when it runs alone (retired workers must not stop a master
    // beside them).
    ModeRunner runner =
        modes.size() == 1
            ? new ModeRunner(config, out, stop::request)
            : new ModeRunner(config, out);
    try {
      runner.start(modes);
    } catch (ModeStartException e) {
      log.debug("start failed", e);
      err.println("flipper: " + e.getMessage());
      err.flush();
      runner.closeAll();
      stop.markStopped();
      return 1;
    }
    out.println(
        "flipper: running "
            + modes.stream().map(Mode::modeName).collect(Collectors.joining(", "))
            + " (pid "
            + ProcessHandle.current().pid()
            + ", started in "
            + uptime().toMillis()
            + " ms);"
            + " stop with SIGTERM or Ctrl-C");
    onReady.accept(runner.running());
    out.flush();
    ConfigWatcher watcher =
        file == null
            ? null
            : new ConfigWatcher(
                file,
                overrides,
                System.getenv(),
                config,
                Mode.liveKeys(modes),
                runner::reconfigure);
    if (watcher != null) {
      watcher.start(ConfigWatcher.DEFAULT_INTERVAL);
    }
    String why;
    try {
      why = stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      why = "interrupt";
    }
    if (watcher != null) {
      watcher.close();
    }
    out.println("flipper: stopping on " + why);
    out.flush();
    boolean clean = runner.closeAll();
    out.println(
        clean
            ? "flipper: stopped cleanly"
            : "flipper: stopped, but some modes failed to stop (see the log)");
    out.flush();
    stop.markStopped();
    return clean ? 0 : 1;
  }

  private static Duration uptime() {
    return Duration.ofMillis(ManagementFactory.getRuntimeMXBean().getUptime());
  }
}
