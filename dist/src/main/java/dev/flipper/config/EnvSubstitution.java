package dev.flipper.config;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} and {@code ${NAME:-default}} in a scalar with the environment variable's value
 * (the default when the variable is unset or empty, as in the shell). {@code $${} writes a literal
 * {@code ${}. Substitution happens per value, after YAML parsing, so a variable can never change the
 * file's structure. Stateless.
 */
final class EnvSubstitution {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final String FORMS = "write ${NAME} or ${NAME:-default}";

  private EnvSubstitution() {}

  static String apply(String text, Map<String, String> env) throws BadValue {
    if (text.indexOf('$') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      if (text.startsWith("$${", i)) {
        out.append("${");
        i += 3;
      } else if (text.startsWith("${", i)) {
        int end = text.indexOf('}', i + 2);
        if (end < 0) {
          throw new BadValue("has an unterminated '${' in '" + text + "' (" + FORMS + ")");
        }
        out.append(resolve(text.substring(i + 2, end), env));
        i = end + 1;
      } else {
        out.append(text.charAt(i));
        i++;
      }
    }
    return out.toString();
  }

  private static String resolve(String reference, Map<String, String> env) throws BadValue {
    int dash = reference.indexOf(":-");
    String name = dash < 0 ? reference : reference.substring(0, dash);
    if (!NAME.matcher(name).matches()) {
      throw new BadValue("has a bad variable reference '${" + reference + "}' (" + FORMS + ")");
    }
    String value = env.get(name);
    if (value != null && !value.isEmpty()) {
      return value;
    }
    if (dash >= 0) {
      return reference.substring(dash + 2);
    }
    throw new BadValue(
        "uses ${"
            + name
            + "}, but environment variable "
            + name
            + " is not set (give a default: ${"
            + name
            + ":-value})");
  }
}
