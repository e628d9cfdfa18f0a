package dev.flipper.config;

import dev.flipper.config.SettingType.ObjectListType;
import dev.flipper.config.SettingType.TextListType;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode;
import dev.flipper.yaml.RawNode.Scalar;
import dev.flipper.yaml.RawNode.Where;
import dev.flipper.yaml.Suggestions;
import dev.flipper.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses {@code --set KEY=VALUE} arguments. A scalar key takes VALUE as it is; a list key reads
 * VALUE as YAML, for example {@code --set email.to=[a@example.com,b@example.com]}. Stateless.
 */
final class Overrides {
  /** One valid override: a known key and its value, located at the argument. */
  record SetOverride(String key, RawNode value) {}

  private Overrides() {}

  static List<SetOverride> parse(List<String> args, Problems problems) {
    List<SetOverride> overrides = new ArrayList<>();
    for (String arg : args) {
      Where where = new Where("--set " + arg, Integer.MAX_VALUE);
      int eq = arg.indexOf('=');
      if (eq <= 0 || arg.substring(0, eq).isBlank()) {
        problems.add(where, "expected KEY=VALUE, for example --set queue.port=9011");
        continue;
      }
      String key = arg.substring(0, eq).strip();
      String text = arg.substring(eq + 1);
      Optional<Setting> setting = ConfigSchema.find(key);
      if (setting.isEmpty()) {
        problems.add(where, unknown(key));
        continue;
      }
      SettingType type = setting.get().type();
      if (type instanceof ObjectListType || type instanceof TextListType) {
        YamlTreeReader.read(where.label(), false, key, text, problems)
            .or(() -> Optional.of(new Scalar(null, where)))
            .ifPresent(node -> overrides.add(new SetOverride(key, node)));
      } else {
        overrides.add(new SetOverride(key, new Scalar(text, where)));
      }
    }
    return overrides;
  }

  /**
   * The message for a key that is not a setting: a section, or unknown at its first unknown part.
   */
  private static String unknown(String key) {
    if (ConfigSchema.groups().contains(key)) {
      return "'"
          + key
          + "' is a section, not a key (its keys: "
          + String.join(", ", ConfigSchema.children(key))
          + ")";
    }
    String parent = "";
    for (String part : key.split("\\.", -1)) {
      String path = parent.isEmpty() ? part : parent + "." + part;
      if (ConfigSchema.find(path).isPresent()) {
        return "'" + path + "' is a key, not a section; there is no '" + key + "'";
      }
      if (!ConfigSchema.groups().contains(path)) {
        return Suggestions.unknownKey(
            parent, part, ConfigSchema.children(parent), ConfigSchema.keys());
      }
      parent = path;
    }
    throw new IllegalStateException("unreachable: '" + key + "' is neither a setting nor a group");
  }
}
