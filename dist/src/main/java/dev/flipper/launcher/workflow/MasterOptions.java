package dev.flipper.launcher.workflow;

import dev.flipper.config.ConfigLocator;
import dev.flipper.config.FlipperConfig;
import dev.flipper.launcher.modes.MasterClients;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How a {@code flipper workflow} command finds the token master: the port from the config, exactly
 * as the daemons read it ({@code -c FILE}, else {@code FLIPPER_CONFIG}, {@code ./flipper.yaml}, the
 * user's config directory or the defaults: {@link ConfigLocator}; {@code --set KEY=VALUE}), the
 * host from {@code --host}. A picocli mixin.
 */
public final class MasterOptions {
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description =
          "The YAML config file the daemons use; the master's port is master.port (default 9090)."
              + " Without it: $FLIPPER_CONFIG, then ./flipper.yaml, then the user's config directory"
              + " (docs/configuration.md).")
  Path config;

  private ConfigLocator.Located located;
  private FlipperConfig loaded; // read once: port(), connect() and where() all need it

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Overrides one config key, e.g. --set master.port=9190. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Option(
      names = "--host",
      paramLabel = "HOST",
      defaultValue = "localhost",
      description = "Host of the token master (default ${DEFAULT-VALUE}).")
  String host;

  /**
   * The master's port from the config; a bad config throws {@code ConfigException} naming the
   * problem.
   */
  int port() {
    return loadConfig().master().port();
  }

  /**
   * The config as the daemons read it (read once); a bad config throws {@code ConfigException}
   * naming the problem.
   */
  FlipperConfig loadConfig() {
    if (loaded == null) {
      loaded = configSource().load(sets, System.getenv());
    }
    return loaded;
  }

  /** Where the config comes from (looked up once). */
  public ConfigLocator.Located configSource() {
    if (located == null) {
      located = ConfigLocator.locate(config);
    }
    return located;
  }

  /** A client of the master; close it after use. */
  TokenMasterClient connect() {
    return MasterClients.forCommand(host, port(), loadConfig().security().commandIdentity());
  }

  /** For messages: where the master is expected, and which config said so. */
  String where() {
    return host + ":" + port() + " (master.port from " + configSource().describe() + ")";
  }

  /** Opens a master: the real client, or a test's own. */
  @FunctionalInterface
  public interface Connector {
    TokenMaster open(MasterOptions options);
  }
}
