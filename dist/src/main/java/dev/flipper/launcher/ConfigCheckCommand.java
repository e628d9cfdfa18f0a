package dev.flipper.launcher;

import dev.flipper.config.ConfigException;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.ConfigSummary;
import dev.flipper.config.FlipperConfig;
import dev.flipper.config.ReferencedFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flipper config-check -c FILE}: validates the config (keys, values, port clashes) and the
 * files it names, then prints a one-line summary, or with {@code --print} the whole effective
 * config, secrets masked.
 */
@Command(
    name = "config-check",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Checks a config file and the files it names, then prints a summary.",
      "Keys, values, port clashes and the files the daemons read or write (rate-limit and server-set files, "
          + "log and work folders, the log file, embedded H2 databases) are checked. With --print, the whole "
          + "effective configuration is printed (defaults filled in, $${ENV} substituted, --set applied, secrets "
          + "masked). Exit code 0 if valid; 2 and the errors on stderr if not."
    })
final class ConfigCheckCommand implements Callable<Integer> {
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      required = true,
      description = "The YAML config file.")
  Path config;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Overrides one config key. Repeatable.")
  List<String> sets = new ArrayList<>();

  @Option(
      names = {"-m", "--mode"},
      paramLabel = "MODE[,MODE...]",
      description =
          "Checks the files of these daemons only (default: all), as on a host that runs them.")
  List<String> modes = new ArrayList<>();

  @Option(
      names = "--print",
      description = "Prints every key of the effective configuration as YAML.")
  boolean print;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> sections;
    try {
      sections =
          Mode.parse(modes.isEmpty() ? List.of(Mode.ALL) : modes).stream()
              .map(Mode::modeName)
              .toList();
    } catch (IllegalArgumentException e) {
      return Launcher.usageError(err, e.getMessage());
    }
    FlipperConfig loaded;
    try {
      loaded = ConfigLoader.load(config, sets, System.getenv());
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return Launcher.EXIT_USAGE;
    }
    List<String> fileProblems = ReferencedFiles.problems(loaded, sections);
    if (!fileProblems.isEmpty()) {
      fileProblems.forEach(err::println);
      return Launcher.EXIT_USAGE;
    }
    if (loaded.email().sendsPasswordInClear()) {
      err.println(
          "warning: email.allowPlainTextPassword is true and email.security is NONE: the SMTP password "
              + "goes over the network in clear; use STARTTLS or TLS");
    }
    if (print) {
      out.println("# " + config + " is valid. Effective configuration, secrets masked:");
      out.print(loaded.values().toYaml(true));
    } else {
      out.println(config + " is valid: " + ConfigSummary.of(loaded, sections));
    }
    return 0;
  }
}
