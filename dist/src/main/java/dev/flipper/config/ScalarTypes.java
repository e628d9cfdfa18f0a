package dev.flipper.config;

import dev.flipper.config.SettingType.BoolType;
import dev.flipper.config.SettingType.DurationType;
import dev.flipper.config.SettingType.EnumType;
import dev.flipper.config.SettingType.IntType;
import dev.flipper.config.SettingType.SizeType;
import dev.flipper.config.SettingType.TextType;
import dev.flipper.jdbc.MariaDbUrls;
import dev.flipper.text.DurationText;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Converts the text of a scalar to its typed value, or says what is wrong. Stateless. */
final class ScalarTypes {
  private static final Pattern INTEGER = Pattern.compile("-?[0-9][0-9_]*");
  private static final Pattern SIZE = Pattern.compile("([0-9][0-9_]{0,14})\\s*(|KiB|MiB|GiB)");

  private ScalarTypes() {}

  /** The phrase after "must be" for a value of the wrong shape, e.g. "an integer". */
  static String expected(SettingType type) {
    if (type instanceof IntType) {
      return "an integer";
    }
    if (type instanceof BoolType) {
      return "true or false";
    }
    if (type instanceof SizeType) {
      return "a size in bytes like 65536, 64KiB, 64MiB or 2GiB";
    }
    if (type instanceof DurationType) {
      return "a duration like " + DurationText.FORMS;
    }
    if (type instanceof EnumType e) {
      return "one of " + String.join(", ", e.values());
    }
    if (type instanceof TextType) {
      return "a string";
    }
    return "a list";
  }

  static Object convert(SettingType type, String text) throws BadValue {
    if (type instanceof IntType t) {
      return toInt(t, text);
    }
    if (type instanceof BoolType) {
      if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
        return Boolean.parseBoolean(text);
      }
      throw new BadValue("must be true or false, got '" + text + "'");
    }
    if (type instanceof SizeType t) {
      return toBytes(t, text);
    }
    if (type instanceof DurationType t) {
      Duration d =
          DurationText.parse(text)
              .orElseThrow(() -> new BadValue("must be " + expected(t) + ", got '" + text + "'"));
      if (d.compareTo(t.min()) < 0) {
        throw new BadValue(
            "must be at least " + DurationText.format(t.min()) + ", got " + text.strip());
      }
      return d;
    }
    if (type instanceof EnumType t) {
      return t.values().stream()
          .filter(v -> v.equalsIgnoreCase(text.strip()))
          .findFirst()
          .orElseThrow(() -> new BadValue("must be " + expected(t) + ", got '" + text + "'"));
    }
    TextType t = (TextType) type;
    if (t.pattern().isPresent() && !text.matches(t.pattern().get())) {
      Optional<String> mariaDb = t.secret() ? Optional.empty() : MariaDbUrls.advice(text);
      if (mariaDb.isPresent()) {
        throw new BadValue(mariaDb.get());
      }
      throw new BadValue(
          "must be " + t.rule() + ", got '" + (t.secret() ? ConfigValues.MASK : text) + "'");
    }
    return text;
  }

  private static long toBytes(SizeType type, String text) throws BadValue {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) {
      throw new BadValue("must be " + expected(type) + ", got '" + text + "'");
    }
    long number = Long.parseLong(m.group(1).replace("_", ""));
    int shift =
        switch (m.group(2)) {
          case "KiB" -> 10;
          case "MiB" -> 20;
          case "GiB" -> 30;
          default -> 0;
        };
    if (number > (Long.MAX_VALUE >> shift)) {
      throw new BadValue("is too large, got " + text.strip());
    }
    return number << shift;
  }

  private static int toInt(IntType type, String text) throws BadValue {
    String digits = text.strip();
    if (!INTEGER.matcher(digits).matches() || digits.length() > 14) {
      throw new BadValue("must be an integer, got '" + text + "'");
    }
    long value = Long.parseLong(digits.replace("_", ""));
    if (value < type.min() || value > type.max()) {
      String range =
          type.max() == Integer.MAX_VALUE
              ? (value < type.min() ? "at least " + type.min() : "at most " + type.max())
              : "between " + type.min() + " and " + type.max();
      throw new BadValue("must be " + range + ", got " + value);
    }
    return (int) value;
  }
}
