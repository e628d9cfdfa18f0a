package dev.flipper.config;

import dev.flipper.text.DurationText;
import dev.flipper.yaml.RawNode.Where;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The validated value of every key (defaults filled in), in schema order, each with where it came
 * from. The typed records are built from it; it also prints the effective configuration with
 * secrets masked. Values never change; the record of which keys were read (a check that no key is
 * forgotten) is thread-safe.
 */
public final class ConfigValues {
  static final String MASK = "*****";

  /**
   * One value: Integer, Boolean, String, Duration, List of String, or List of ConfigValues (items).
   */
  record Value(Setting setting, Object value, Where where, boolean isDefault) {}

  private final Map<String, Value> values;
  private final List<String> order;
  private final Set<String> read = ConcurrentHashMap.newKeySet();

  ConfigValues(Map<String, Value> values) {
    this.values = Map.copyOf(values);
    this.order = List.copyOf(values.keySet());
  }

  int integer(String key) {
    return (Integer) get(key);
  }

  long bytes(String key) {
    return (Long) get(key);
  }

  boolean bool(String key) {
    return (Boolean) get(key);
  }

  String text(String key) {
    return (String) get(key);
  }

  Duration duration(String key) {
    return (Duration) get(key);
  }

  @SuppressWarnings("unchecked")
  List<String> texts(String key) {
    return (List<String>) get(key);
  }

  @SuppressWarnings("unchecked")
  List<ConfigValues> items(String key) {
    return (List<ConfigValues>) get(key);
  }

  Value value(String key) {
    Value value = values.get(key);
    if (value == null) {
      throw new IllegalStateException(
          "No config key '" + key + "' in ConfigSchema; indicates a bug");
    }
    return value;
  }

  private Object get(String key) {
    Object v = value(key).value();
    read.add(key);
    return v;
  }

  /**
   * Keys (items as {@code list[].key}) that the typed records never read; empty unless there is a
   * bug.
   */
  public Set<String> unreadKeys() {
    Set<String> unread = new TreeSet<>();
    for (String key : order) {
      if (!read.contains(key)) {
        unread.add(key);
      } else if (values.get(key).setting().type() instanceof SettingType.ObjectListType) {
        for (ConfigValues item : items(key)) {
          item.unreadKeys().forEach(k -> unread.add(key + "[]." + k));
        }
      }
    }
    return unread;
  }

  /**
   * The keys whose values differ from {@code other}'s, in schema order; a list of shards counts as
   * one key ({@code storage.jdbc.shards}).
   */
  public List<String> changedKeys(ConfigValues other) {
    return order.stream()
        .filter(
            key ->
                !java.util.Objects.equals(
                    plain(values.get(key), false), plain(other.values.get(key), false)))
        .toList();
  }

  /** The effective configuration as a YAML document that the loader reads back. */
  public String toYaml(boolean maskSecrets) {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    options.setIndent(2);
    options.setIndicatorIndent(2);
    options.setIndentWithIndicator(true);
    return new Yaml(options).dump(nested(maskSecrets));
  }

  /** The effective configuration on one line, {@code key=value} pairs in schema order. */
  public String toOneLine(boolean maskSecrets) {
    return order.stream()
        .map(key -> key + "=" + plain(values.get(key), maskSecrets))
        .collect(Collectors.joining(", "));
  }

  private Map<String, Object> nested(boolean maskSecrets) {
    Map<String, Object> root = new LinkedHashMap<>();
    for (String key : order) {
      Map<String, Object> parent = root;
      String[] parts = key.split("\\.");
      for (int i = 0; i < parts.length - 1; i++) {
        @SuppressWarnings("unchecked")
        Map<String, Object> child =
            (Map<String, Object>) parent.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
        parent = child;
      }
      parent.put(parts[parts.length - 1], plain(values.get(key), maskSecrets));
    }
    return root;
  }

  /** The value as plain YAML data: strings, numbers, booleans, lists and maps. */
  private static Object plain(Value value, boolean maskSecrets) {
    Object v = value.value();
    if (v instanceof Duration d) {
      return DurationText.format(d);
    }
    if (maskSecrets && value.setting().type().secret() && !((String) v).isEmpty()) {
      return MASK;
    }
    if (v instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof ConfigValues) {
      List<Object> items = new ArrayList<>();
      for (Object item : list) {
        items.add(((ConfigValues) item).nested(maskSecrets));
      }
      return items;
    }
    return v;
  }
}
