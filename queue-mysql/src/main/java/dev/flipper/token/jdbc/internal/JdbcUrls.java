package dev.flipper.token.jdbc.internal;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Adds default properties to JDBC URLs and masks passwords in them. Stateless. */
public final class JdbcUrls {
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");

  private JdbcUrls() {}

  /**
   * Appends {@code key=value} for every default whose key the URL does not mention yet. {@code start} begins
   * the property list ('?' for MySQL, ';' for H2), {@code separator} separates properties.
   */
  static String withDefaults(String url, char start, char separator, Map<String, String> defaults) {
    StringBuilder out = new StringBuilder(url);
    String lower = url.toLowerCase(Locale.ROOT);
    boolean hasProperties = url.indexOf(start) >= 0;
    for (Map.Entry<String, String> entry : defaults.entrySet()) {
      String key = entry.getKey().toLowerCase(Locale.ROOT) + "=";
      if (lower.contains(start + key) || lower.contains(separator + key)) {
        continue;
      }
      out.append(hasProperties ? separator : start).append(entry.getKey()).append('=').append(entry.getValue());
      hasProperties = true;
    }
    return out.toString();
  }

  /** The URL with any password property replaced by ****, for logs and messages. */
  public static String masked(String url) {
    return url == null ? null : PASSWORD.matcher(url).replaceAll("$1****");
  }
}
