package dev.flipper.config;

import dev.flipper.config.Overrides.SetOverride;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode;
import dev.flipper.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the shared YAML configuration: reads the file, substitutes {@code ${ENV:-default}}, applies
 * {@code --set KEY=VALUE} overrides, checks everything against {@link ConfigSchema} and returns
 * typed, immutable settings. Every problem found is reported at once in one {@link
 * ConfigException}. Stateless and thread-safe.
 *
 * <pre>{@code
 * FlipperConfig config = ConfigLoader.load(Path.of("conf/flipper.yaml"), List.of("queue.port=9011"), System.getenv());
 * }</pre>
 */
public final class ConfigLoader {
  private ConfigLoader() {}

  /**
   * Loads {@code file}; error lines start with the path as given, e.g. {@code
   * conf/flipper.yaml:12:}.
   */
  public static FlipperConfig load(Path file, List<String> setOverrides, Map<String, String> env) {
    String label = file.toString();
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException(
          label
              + ": cannot read the config file: no such file (working directory "
              + Path.of("").toAbsolutePath()
              + ")");
    } catch (AccessDeniedException e) {
      throw new ConfigException(label + ": cannot read the config file: permission denied");
    } catch (CharacterCodingException e) {
      throw new ConfigException(label + ": cannot read the config file: it is not UTF-8 text");
    } catch (IOException e) {
      String why = Files.isDirectory(file) ? "it is a directory" : String.valueOf(e.getMessage());
      throw new ConfigException(label + ": cannot read the config file: " + why);
    }
    return parse(label, text, setOverrides, env);
  }

  /** Loads YAML {@code text} that error lines call {@code sourceName}. */
  public static FlipperConfig parse(
      String sourceName, String text, List<String> setOverrides, Map<String, String> env) {
    Problems problems = new Problems();
    Optional<RawNode> root = YamlTreeReader.read(sourceName, true, "", text, problems);
    List<SetOverride> overrides = Overrides.parse(setOverrides, problems);
    Optional<ConfigValues> values = new Binder(sourceName, env, problems).bind(root, overrides);
    problems.throwIfAny(ConfigException::new);
    return FlipperConfig.from(values.orElseThrow());
  }

  /** Every default, plus overrides: what an empty file gives. */
  public static FlipperConfig defaults(List<String> setOverrides, Map<String, String> env) {
    return parse("(defaults)", "", setOverrides, env);
  }
}
