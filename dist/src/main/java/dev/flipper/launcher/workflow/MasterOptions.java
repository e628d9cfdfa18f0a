package dev.flipper.launcher.workflow;

import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.master.client.TokenMasterClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How a {@code flipper workflow} command finds the token master: the port from the config, exactly
 * as the daemons read it ({@code -c FILE}, {@code --set KEY=VALUE}; without {@code -c}, the
 * defaults), the host from {@code --host}. A picocli mixin.
 */
public final class MasterOptions {
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description =
          "The YAML config file the daemons use; the master's port is master.port (default 9090).")
  Path config;

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
   * The config as the daemons read it; a bad config throws {@code ConfigException} naming the
   * problem.
   */
  FlipperConfig loadConfig() {
    return config == null
        ? ConfigLoader.defaults(sets, System.getenv())
        : ConfigLoader.load(config, sets, System.getenv());
  }

  /** A client of the master; close it after use. */
  TokenMasterClient connect() {
    return TokenMasterClient.builder(host, port()).connectAttempts(3).build();
  }

  /** For messages: where the master is expected. */
  String where() {
    return host + ":" + port();
  }

  /** Opens a master: the real client, or a test's own. */
  @FunctionalInterface
  public interface Connector {
    TokenMaster open(MasterOptions options);
  }
}
