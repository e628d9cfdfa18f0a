package dev.flipper.config;

import java.util.Optional;

/**
 * One configuration key: its dotted path ({@code queue.port}; relative, like {@code url}, for the
 * keys of a list item), its type and range, its default written as YAML (absent when the key is
 * required) and a one-line meaning. Defaults exist only here: the loader parses them with the same
 * code as user values. Immutable.
 */
public record Setting(String key, SettingType type, Optional<String> defaultYaml, String meaning) {

  public boolean required() {
    return defaultYaml.isEmpty();
  }

  /** The Default column of docs/configuration.md: the YAML default, or {@code required}. */
  public String docDefault() {
    return defaultYaml.orElse("required");
  }

  /** The last part of the key: {@code port} for {@code queue.port}. */
  public String leaf() {
    return key.substring(key.lastIndexOf('.') + 1);
  }
}
