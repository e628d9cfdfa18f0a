package dev.flipper.jdbc;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Small helpers for JDBC URL text. Stateless. */
public final class JdbcUrl {
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)(password[0-9]*=)[^&;]*");
  private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");

  private JdbcUrl() {}

  /**
   * Appends each default {@code key=value} whose key (case-insensitive) is not in the URL yet. The
   * first parameter follows {@code firstSeparator} ('?' for MySQL, ';' for H2), the others {@code
   * separator}.
   */
  public static String withDefaults(
      String url, char firstSeparator, char separator, Map<String, String> defaults) {
    StringBuilder result = new StringBuilder(url);
    int start = url.indexOf(firstSeparator);
    String params = start < 0 ? "" : url.substring(start + 1).toLowerCase(Locale.ROOT);
    boolean hasParams = start >= 0;
    for (Map.Entry<String, String> entry : defaults.entrySet()) {
      if (hasKey(params, entry.getKey().toLowerCase(Locale.ROOT), separator)) {
        continue;
      }
      if (!hasParams) {
        result.append(firstSeparator);
        hasParams = true;
      } else if (result.charAt(result.length() - 1) != separator
          && result.charAt(result.length() - 1) != firstSeparator) {
        result.append(separator);
      }
      result.append(entry.getKey()).append('=').append(entry.getValue());
    }
    return result.toString();
  }

  private static boolean hasKey(String params, String key, char separator) {
    for (String part : params.split(Pattern.quote(String.valueOf(separator)))) {
      int eq = part.indexOf('=');
      String name = (eq < 0 ? part : part.substring(0, eq)).trim();
      if (name.equals(key)) {
        return true;
      }
    }
    return false;
  }

  /** The URL with any password in it replaced by ****, for logs and error messages. */
  public static String masked(String url) {
    if (url == null) {
      return "null";
    }
    String masked = PASSWORD_PARAM.matcher(url).replaceAll("$1****");
    return USER_INFO.matcher(masked).replaceAll("$1****@");
  }
}
