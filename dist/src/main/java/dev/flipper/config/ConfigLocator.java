package dev.flipper.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a command's config comes from when it is not given with {@code -c}, in the order users
 * expect from other tools: {@code -c FILE}, then the {@code FLIPPER_CONFIG} environment variable,
 * then {@code ./flipper.yaml}, then {@code flipper.yaml} in the user's config directory ({@code
 * $XDG_CONFIG_HOME/flipper/}, else {@code ~/.config/flipper/}), then the built-in defaults.
 * Stateless.
 */
public final class ConfigLocator {
  /** The environment variable naming the config file. */
  public static final String ENV = "FLIPPER_CONFIG";

  static final String FILE_NAME = "flipper.yaml";

  private ConfigLocator() {}

  /**
   * Where the config was found.
   *
   * @param file the file, or empty for the built-in defaults
   * @param origin how it was chosen, for messages: {@code -c}, {@code FLIPPER_CONFIG}, {@code
   *     ./flipper.yaml}, the user's config directory, or the defaults (naming where it looked)
   */
  public record Located(Optional<Path> file, String origin) {
    /** Loads it as the daemons would. */
    public FlipperConfig load(List<String> sets, Map<String, String> env) {
      return file.map(f -> ConfigLoader.load(f, sets, env))
          .orElseGet(() -> ConfigLoader.defaults(sets, env));
    }

    /** For messages: {@code config ./flipper.yaml (found in the working directory)}. */
    public String describe() {
      return file.map(f -> "config " + f + " (" + origin + ")").orElse(origin);
    }
  }

  /** Looks with the process's environment, working directory and home directory. */
  public static Located locate(Path explicit) {
    return locate(
        explicit,
        System.getenv(),
        Path.of("").toAbsolutePath(),
        Path.of(System.getProperty("user.home")));
  }

  /**
   * Looks in order; a {@code FLIPPER_CONFIG} that names no file is an error rather than a silent
   * fall-back to the defaults.
   *
   * @throws ConfigException if {@code FLIPPER_CONFIG} is set to a file that does not exist
   */
  public static Located locate(
      Path explicit, Map<String, String> env, Path workingDirectory, Path home) {
    if (explicit != null) {
      return new Located(Optional.of(explicit), "given with -c");
    }
    String named = env.get(ENV);
    if (named != null && !named.isBlank()) {
      Path file = Path.of(named);
      if (!Files.isRegularFile(file)) {
        throw new ConfigException(
            ENV + "=" + named + ": no such file (unset it, or point it at the config file)");
      }
      return new Located(Optional.of(file), "from " + ENV);
    }
    Path local = workingDirectory.resolve(FILE_NAME);
    if (Files.isRegularFile(local)) {
      return new Located(Optional.of(local), "found in the working directory");
    }
    Path user = userConfigDirectory(env, home).resolve(FILE_NAME);
    if (Files.isRegularFile(user)) {
      return new Located(Optional.of(user), "found in the user's config directory");
    }
    return new Located(
        Optional.empty(),
        "the built-in defaults (no -c, no " + ENV + ", no ./" + FILE_NAME + ", no " + user + ")");
  }

  /** {@code $XDG_CONFIG_HOME/flipper}, else {@code ~/.config/flipper}. */
  static Path userConfigDirectory(Map<String, String> env, Path home) {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".config");
    return base.resolve("flipper");
  }
}
