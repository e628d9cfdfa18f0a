package dev.flipper.bench.suite;

import java.util.HashMap;
import java.util.Map;

/** The harness's {@code --name value} arguments; every name is documented in bench/README.md. */
final class Options {
  private final Map<String, String> values = new HashMap<>();

  Options(String[] args) {
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "' at position " + i);
      }
      values.put(args[i].substring(2), args[i + 1]);
    }
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String require(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }

  int getInt(String name, int fallback) {
    return Integer.parseInt(get(name, Integer.toString(fallback)));
  }

  double getDouble(String name, double fallback) {
    return Double.parseDouble(get(name, Double.toString(fallback)));
  }
}
