package dev.flipper.config;

import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The type of one configuration key, with its allowed range. {@link #docName()} is the text shown
 * in the Type column of docs/configuration.md; a test keeps the two equal. Immutable.
 */
public sealed interface SettingType {

  /** The type as documented, for example {@code int 1..100} or {@code duration >= 1s}. */
  String docName();

  /** Whether values of this type are masked when the configuration is printed or logged. */
  default boolean secret() {
    return false;
  }

  /** A whole number in {@code min..max}. */
  record IntType(int min, int max) implements SettingType {
    @Override
    public String docName() {
      return max == Integer.MAX_VALUE ? "int >= " + min : "int " + min + ".." + max;
    }
  }

  /**
   * A number of bytes, written as a whole number with an optional binary unit ({@code 65536},
   * {@code 64KiB}, {@code 64 MiB}, {@code 2GiB}); 0 often means "no limit".
   */
  record SizeType() implements SettingType {
    @Override
    public String docName() {
      return "size (bytes, KiB, MiB, GiB)";
    }
  }

  /** {@code true} or {@code false}. */
  record BoolType() implements SettingType {
    @Override
    public String docName() {
      return "bool";
    }
  }

  /**
   * A string, optionally restricted to a regular expression that {@code rule} explains in words. A
   * secret string is masked in printed configuration.
   */
  record TextType(boolean secret, Optional<String> pattern, String rule) implements SettingType {
    static TextType any() {
      return new TextType(false, Optional.empty(), "");
    }

    static TextType anySecret() {
      return new TextType(true, Optional.empty(), "");
    }

    static TextType matching(boolean secret, String pattern, String rule) {
      return new TextType(secret, Optional.of(pattern), rule);
    }

    @Override
    public String docName() {
      String base = secret ? "secret" : "string";
      return rule.isEmpty() ? base : base + " (" + rule + ")";
    }
  }

  /** A {@link DurationText duration} of at least {@code min}. */
  record DurationType(Duration min) implements SettingType {
    @Override
    public String docName() {
      return min.isZero() ? "duration" : "duration >= " + DurationText.format(min);
    }
  }

  /** One of a fixed set of words, matched ignoring case and stored as written here. */
  record EnumType(List<String> values) implements SettingType {
    @Override
    public String docName() {
      return "one of " + String.join(", ", values);
    }
  }

  /** A YAML list of strings, for example {@code [ops@example.com]}. */
  record TextListType() implements SettingType {
    @Override
    public String docName() {
      return "list of string";
    }
  }

  /**
   * A YAML list of maps (for example storage shards) whose keys are {@code items}, with {@code
   * uniqueKey} distinct across the list; non-empty unless {@code mayBeEmpty}.
   */
  record ObjectListType(String itemName, List<Setting> items, String uniqueKey, boolean mayBeEmpty)
      implements SettingType {
    ObjectListType(String itemName, List<Setting> items, String uniqueKey) {
      this(itemName, items, uniqueKey, false);
    }

    @Override
    public String docName() {
      return "list of " + itemName;
    }

    public Optional<Setting> item(String name) {
      return items.stream().filter(s -> s.key().equals(name)).findFirst();
    }
  }
}
