package dev.flipper.config;

import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes a default given as a Java value (most often a module's constant, see {@link ConfigSchema})
 * as the YAML the loader parses and docs/configuration.md shows: {@code 10}, {@code false}, {@code
 * 10m} (the shortest exact unit, {@link DurationText#format}), {@code 127.0.0.1}, {@code ""},
 * {@code "flipper:"}, {@code []}. A {@link Literal} is written as is. Stateless.
 */
final class DefaultYaml {
  /** A default already written as YAML, for the defaults no module holds (the default shards). */
  record Literal(String yaml) {}

  /**
   * Text YAML would read as something else than that string, or that needs quotes to be read at
   * all.
   */
  private static final Pattern NEEDS_QUOTES =
      Pattern.compile(
          "|.*[:#,\\[\\]{}&*!|>'\"%@`\\\\].*|[-?\\s].*|.*\\s|[-+]?(\\.\\d+|\\d[\\d_]*(\\.\\d*)?)([eE][-+]?\\d+)?");

  private static final List<String> YAML_WORDS =
      List.of("true", "false", "yes", "no", "on", "off", "null", "~", "y", "n");

  private DefaultYaml() {}

  static String of(Object value) {
    if (value instanceof Literal literal) {
      return literal.yaml();
    }
    if (value instanceof String text) {
      return text(text);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Duration duration) {
      return DurationText.format(duration);
    }
    if (value instanceof Enum<?> constant) {
      return constant.name();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(DefaultYaml::of).collect(Collectors.joining(", ", "[", "]"));
    }
    throw new IllegalArgumentException(
        "no YAML form for a default of type "
            + (value == null ? "null" : value.getClass().getName())
            + "; indicates a bug in ConfigSchema");
  }

  private static String text(String text) {
    if (!NEEDS_QUOTES.matcher(text).matches()
        && !YAML_WORDS.contains(text.toLowerCase(Locale.ROOT))) {
      return text;
    }
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
