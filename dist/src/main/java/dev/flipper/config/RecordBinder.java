package dev.flipper.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Builds a settings record from validated {@link ConfigValues} by component name: a record bound at
 * {@code queue} reads its component {@code port} from the key {@code queue.port}. This is why the
 * modules' own settings types (for example {@code JdbcShardConfig} or {@code WorkerDaemon.Config})
 * can be bound directly: a new setting is a component of that type plus its {@link ConfigSchema}
 * entry, with no mapping code in between. Supported component types: int, long (a size), boolean,
 * String, Duration, enums (by name, ignoring case), List of String, List of records (the items of a
 * list of maps) and nested records (the keys under {@code prefix.component}). Stateless.
 */
final class RecordBinder {
  private RecordBinder() {}

  /**
   * The record of type {@code type} whose components are the keys under {@code prefix} ("" = top
   * level).
   */
  static <R extends Record> R bind(ConfigValues values, String prefix, Class<R> type) {
    return bind(values, prefix, type, "'" + prefix + "'");
  }

  /**
   * @param context where the values came from, to start the message if the record refuses them
   */
  private static <R extends Record> R bind(
      ConfigValues values, String prefix, Class<R> type, String context) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] arguments = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent component = components[i];
      String key = prefix.isEmpty() ? component.getName() : prefix + "." + component.getName();
      arguments[i] = value(values, key, component.getType(), component.getGenericType());
    }
    try {
      Constructor<R> constructor =
          type.getDeclaredConstructor(
              Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
      return constructor.newInstance(arguments);
    } catch (InvocationTargetException e) {
      // The module's own checks refused a value the schema let through: report it like a config
      // error.
      throw new ConfigException(context + ": " + e.getCause().getMessage());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot build " + type.getName() + " from '" + prefix + "'; indicates a bug", e);
    }
  }

  private static Object value(ConfigValues values, String key, Class<?> type, Type genericType) {
    if (type == int.class || type == Integer.class) {
      return values.integer(key);
    }
    if (type == long.class || type == Long.class) {
      return values.bytes(key);
    }
    if (type == boolean.class || type == Boolean.class) {
      return values.bool(key);
    }
    if (type == String.class) {
      return values.text(key);
    }
    if (type == Duration.class) {
      return values.duration(key);
    }
    if (type.isEnum()) {
      return enumValue(type, values.text(key));
    }
    if (type == List.class) {
      Class<?> item = listItem(key, genericType);
      if (item == String.class) {
        return values.texts(key);
      }
      List<ConfigValues> items = values.items(key);
      String where = values.value(key).where().toString();
      List<Object> records = new ArrayList<>();
      for (int i = 0; i < items.size(); i++) {
        String context = (where.isEmpty() ? "" : where + ": ") + "'" + key + "[" + i + "]'";
        records.add(bind(items.get(i), "", item.asSubclass(Record.class), context));
      }
      return List.copyOf(records);
    }
    if (type.isRecord()) {
      return bind(values, key, type.asSubclass(Record.class));
    }
    throw new IllegalStateException(
        "no binding for " + type.getName() + " at '" + key + "'; indicates a bug");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumValue(Class<?> type, String word) {
    return Enum.valueOf((Class) type, word.toUpperCase(Locale.ROOT));
  }

  private static Class<?> listItem(String key, Type genericType) {
    if (genericType instanceof ParameterizedType p
        && p.getActualTypeArguments()[0] instanceof Class<?> item) {
      return item;
    }
    throw new IllegalStateException(
        "the list at '" + key + "' needs a concrete item type; indicates a bug");
  }
}
