package dev.flipper.launcher;

import dev.flipper.config.ConfigException;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code flipper config-check -c FILE}: validates the config and prints the effective one, secrets masked. */
@Command(
    name = "config-check",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Checks a config file and prints the effective configuration (defaults filled in, $${ENV} substituted, "
          + "--set applied, secrets masked).",
      "Exit code 0 if valid; 2 and the errors on stderr if not."
    })
final class ConfigCheckCommand implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, paramLabel = "FILE", required = true, description = "The YAML config file.")
  Path config;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one config key. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try {
      FlipperConfig loaded = ConfigLoader.load(config, sets, System.getenv());
      out.println("# " + config + " is valid. Effective configuration, secrets masked:");
      out.print(loaded.values().toYaml(true));
      return 0;
    } catch (ConfigException e) {
      spec.commandLine().getErr().println(e.getMessage());
      return Launcher.EXIT_USAGE;
    }
  }
}
