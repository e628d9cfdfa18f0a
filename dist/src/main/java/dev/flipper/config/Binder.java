package dev.flipper.config;

import dev.flipper.config.Overrides.SetOverride;
import dev.flipper.config.SettingType.ObjectListType;
import dev.flipper.config.SettingType.TextListType;
import dev.flipper.config.SettingType.TextType;
import dev.flipper.yaml.Problems;
import dev.flipper.yaml.RawNode;
import dev.flipper.yaml.RawNode.Entry;
import dev.flipper.yaml.RawNode.Mapping;
import dev.flipper.yaml.RawNode.Scalar;
import dev.flipper.yaml.RawNode.Sequence;
import dev.flipper.yaml.RawNode.Where;
import dev.flipper.yaml.Suggestions;
import dev.flipper.yaml.YamlTreeReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a {@link RawNode} tree against {@link ConfigSchema} and converts it to {@link
 * ConfigValues}: unknown keys, wrong shapes and types, ranges, required keys and unique shard
 * names. Every problem goes to {@link Problems} so that one run reports them all. One instance per
 * load; not thread-safe.
 */
final class Binder {
  private final String fileLabel;
  private final Map<String, String> env;
  private final Problems problems;
  private final Set<String> groups = ConfigSchema.groups();

  Binder(String fileLabel, Map<String, String> env, Problems problems) {
    this.fileLabel = fileLabel;
    this.env = env;
    this.problems = problems;
  }

  /** The values, or empty when there were problems (they are in {@link Problems}). */
  Optional<ConfigValues> bind(Optional<RawNode> file, List<SetOverride> overrides) {
    Mapping root = Mapping.empty(new Where(fileLabel, 0));
    if (file.isPresent() && file.get() instanceof Mapping mapping) {
      root = mapping;
    } else if (file.isPresent()) {
      problems.add(
          file.get().where(),
          "the file must be a map of sections ("
              + String.join(", ", ConfigSchema.children(""))
              + "), got "
              + RawNode.describe(file.get()));
    }
    for (SetOverride override : overrides) {
      put(root, override);
    }
    checkKeys(root, "");

    Map<String, ConfigValues.Value> values = new LinkedHashMap<>();
    for (Setting setting : ConfigSchema.SETTINGS) {
      Optional<RawNode> node = lookup(root, setting.key());
      ConfigValues.Value value =
          node.isPresent()
              ? convert(setting, setting.key(), node.get())
              : defaultValue(setting, setting.key());
      if (value != null) {
        values.put(setting.key(), value);
      }
    }
    if (!problems.isEmpty()) {
      return Optional.empty();
    }
    applyFallbacks(values);
    ConfigValues result = new ConfigValues(values);
    ConfigSchema.checkTogether(result, problems);
    return problems.isEmpty() ? Optional.of(result) : Optional.empty();
  }

  /**
   * An empty value that has a fallback key takes that key's value, e.g. queue.bindAddress "" =
   * network.bindAddress.
   */
  private static void applyFallbacks(Map<String, ConfigValues.Value> values) {
    for (Map.Entry<String, ConfigValues.Value> entry : values.entrySet()) {
      ConfigValues.Value value = entry.getValue();
      Optional<ConfigValues.Value> from = ConfigSchema.fallback(entry.getKey()).map(values::get);
      if ("".equals(value.value()) && from.isPresent()) {
        entry.setValue(
            new ConfigValues.Value(
                value.setting(), from.get().value(), value.where(), value.isDefault()));
      }
    }
  }

  /** Puts an override into the tree, replacing what the file had at that key. */
  private static void put(Mapping root, SetOverride override) {
    String[] parts = override.key().split("\\.");
    Mapping map = root;
    for (int i = 0; i < parts.length - 1; i++) {
      Entry entry = map.entries().get(parts[i]);
      if (entry == null || isNull(entry.value())) {
        Mapping child = Mapping.empty(override.value().where());
        map.entries().put(parts[i], new Entry(parts[i], override.value().where(), child));
        map = child;
      } else if (entry.value() instanceof Mapping child) {
        map = child;
      } else {
        return; // the file has a non-map here, which checkKeys reports
      }
    }
    String leaf = parts[parts.length - 1];
    map.entries().put(leaf, new Entry(leaf, override.value().where(), override.value()));
  }

  private void checkKeys(Mapping map, String path) {
    for (Entry entry : map.entries().values()) {
      String child = path.isEmpty() ? entry.key() : path + "." + entry.key();
      if (groups.contains(child)) {
        if (entry.value() instanceof Mapping mapping) {
          checkKeys(mapping, child);
        } else if (!isNull(entry.value())) {
          String what = path.isEmpty() ? "section '" : "'";
          problems.add(
              entry.value().where(),
              what
                  + child
                  + "' must be a map of keys ("
                  + String.join(", ", ConfigSchema.children(child))
                  + "), got "
                  + RawNode.describe(entry.value()));
        }
      } else if (ConfigSchema.find(child).isEmpty()) {
        problems.add(
            entry.keyWhere(),
            Suggestions.unknownKey(
                path, entry.key(), ConfigSchema.children(path), ConfigSchema.keys()));
      }
    }
  }

  private static Optional<RawNode> lookup(Mapping root, String key) {
    RawNode node = root;
    for (String part : key.split("\\.")) {
      if (!(node instanceof Mapping map) || !map.entries().containsKey(part)) {
        return Optional.empty();
      }
      node = map.entries().get(part).value();
    }
    return Optional.of(node);
  }

  private ConfigValues.Value convert(Setting setting, String path, RawNode node) {
    SettingType type = setting.type();
    if (type instanceof ObjectListType list) {
      return items(setting, list, path, node);
    }
    if (type instanceof TextListType) {
      return texts(setting, path, node);
    }
    if (!(node instanceof Scalar scalar)) {
      problems.add(
          node.where(),
          "'"
              + path
              + "' must be "
              + ScalarTypes.expected(type)
              + ", got "
              + RawNode.describe(node));
      return null;
    }
    if (scalar.isNull()) {
      if (setting.required()) {
        problems.add(node.where(), "'" + path + "' is required");
      } else if (type instanceof TextType) {
        return new ConfigValues.Value(setting, "", node.where(), false);
      } else {
        problems.add(
            node.where(),
            "'"
                + path
                + "' has no value (remove the key to use the default, "
                + setting.docDefault()
                + ")");
      }
      return null;
    }
    try {
      String text = EnvSubstitution.apply(scalar.text(), env);
      try {
        return new ConfigValues.Value(
            setting, ScalarTypes.convert(type, text), node.where(), false);
      } catch (BadValue e) {
        String from = text.equals(scalar.text()) ? "" : " (from '" + scalar.text() + "')";
        problems.add(node.where(), "'" + path + "' " + e.getMessage() + from);
      }
    } catch (BadValue e) {
      problems.add(node.where(), "'" + path + "' " + e.getMessage());
    }
    return null;
  }

  private ConfigValues.Value texts(Setting setting, String path, RawNode node) {
    if (isNull(node)) {
      return new ConfigValues.Value(setting, List.of(), node.where(), false);
    }
    if (!(node instanceof Sequence sequence)) {
      problems.add(
          node.where(), "'" + path + "' must be a list like [a, b], got " + RawNode.describe(node));
      return null;
    }
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < sequence.items().size(); i++) {
      RawNode item = sequence.items().get(i);
      String itemPath = path + "[" + i + "]";
      if (!(item instanceof Scalar scalar) || scalar.isNull()) {
        problems.add(
            item.where(), "'" + itemPath + "' must be a string, got " + RawNode.describe(item));
        continue;
      }
      try {
        texts.add(EnvSubstitution.apply(scalar.text(), env));
      } catch (BadValue e) {
        problems.add(item.where(), "'" + itemPath + "' " + e.getMessage());
      }
    }
    return new ConfigValues.Value(setting, List.copyOf(texts), node.where(), false);
  }

  private ConfigValues.Value items(
      Setting setting, ObjectListType type, String path, RawNode node) {
    if (isNull(node) || (node instanceof Sequence s && s.items().isEmpty() && !type.mayBeEmpty())) {
      problems.add(node.where(), "'" + path + "' must list at least one " + type.itemName());
      return null;
    }
    if (!(node instanceof Sequence sequence)) {
      problems.add(
          node.where(),
          "'"
              + path
              + "' must be a list of "
              + type.itemName()
              + "s, got "
              + RawNode.describe(node));
      return null;
    }
    List<String> itemKeys = type.items().stream().map(Setting::key).toList();
    List<ConfigValues> items = new ArrayList<>();
    Map<Object, String> seen = new HashMap<>();
    for (int i = 0; i < sequence.items().size(); i++) {
      RawNode itemNode = sequence.items().get(i);
      String itemPath = path + "[" + i + "]";
      if (!(itemNode instanceof Mapping map)) {
        problems.add(
            itemNode.where(),
            "'"
                + itemPath
                + "' must be a map with keys "
                + String.join(", ", itemKeys)
                + "; got "
                + RawNode.describe(itemNode));
        continue;
      }
      for (Entry entry : map.entries().values()) {
        if (type.item(entry.key()).isEmpty()) {
          problems.add(
              entry.keyWhere(), Suggestions.unknownKey(itemPath, entry.key(), itemKeys, List.of()));
        }
      }
      Map<String, ConfigValues.Value> fields = new LinkedHashMap<>();
      for (Setting field : type.items()) {
        String fieldPath = itemPath + "." + field.key();
        Entry entry = map.entries().get(field.key());
        ConfigValues.Value value;
        if (entry != null) {
          value = convert(field, fieldPath, entry.value());
        } else if (field.required()) {
          problems.add(map.where(), "'" + fieldPath + "' is required");
          value = null;
        } else {
          value = defaultValue(field, fieldPath);
        }
        if (value != null) {
          fields.put(field.key(), value);
        }
      }
      ConfigValues.Value unique = fields.get(type.uniqueKey());
      if (unique != null) {
        String first = seen.putIfAbsent(unique.value(), itemPath);
        if (first != null) {
          problems.add(
              unique.where(),
              "'"
                  + itemPath
                  + "."
                  + type.uniqueKey()
                  + "' repeats the "
                  + type.uniqueKey()
                  + " '"
                  + unique.value()
                  + "' of "
                  + first
                  + "; each "
                  + type.itemName()
                  + " needs its own");
        }
      }
      if (fields.size() == type.items().size()) {
        items.add(new ConfigValues(fields));
      }
    }
    return new ConfigValues.Value(setting, List.copyOf(items), node.where(), false);
  }

  /**
   * The default, parsed and converted like a user's value; a default that fails is a bug in the
   * schema.
   */
  private ConfigValues.Value defaultValue(Setting setting, String path) {
    Where where = new Where(fileLabel, Integer.MAX_VALUE);
    Problems own = new Problems();
    String yaml = setting.defaultYaml().orElseThrow();
    RawNode node =
        YamlTreeReader.read("default", false, path, yaml, own).orElse(new Scalar(null, where));
    ConfigValues.Value value = new Binder(fileLabel, Map.of(), own).convert(setting, path, node);
    if (value == null || !own.isEmpty()) {
      throw new IllegalStateException(
          "Default of '" + path + "' in ConfigSchema is invalid; indicates a bug");
    }
    return new ConfigValues.Value(setting, value.value(), where, true);
  }

  private static boolean isNull(RawNode node) {
    return node instanceof Scalar scalar && scalar.isNull();
  }
}
