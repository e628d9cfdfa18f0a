package dev.flipper.workflow.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The parameters of a run started from the UI's start form ({@code key} and {@code value} rows) or
 * its JSON API, checked before anything starts: every problem named by its row and field. Pure.
 */
final class StartParams {
  static final int MAX_KEY = 64;
  static final int MAX_VALUE = 1024;
  static final int MAX_PARAMS = 50;
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]+");

  private StartParams() {}

  /**
   * The rows as parameters, in their order; rows with both fields blank are skipped.
   *
   * @throws UiServer.BadRequestException listing every problem, e.g. {@code parameter 2: key 'a b'
   *     may only contain letters, digits, '_', '.' and '-'}
   */
  static Map<String, String> parse(List<String> keys, List<String> values) {
    List<String> problems = new ArrayList<>();
    Map<String, String> params = new LinkedHashMap<>();
    Map<String, Integer> rowOf = new LinkedHashMap<>();
    int rows = Math.max(keys.size(), values.size());
    for (int i = 0; i < rows; i++) {
      String key = i < keys.size() && keys.get(i) != null ? keys.get(i).trim() : "";
      String value = i < values.size() && values.get(i) != null ? values.get(i) : "";
      int row = i + 1;
      if (key.isEmpty() && value.isEmpty()) {
        continue;
      }
      String problem = keyProblem(key, value);
      if (problem != null) {
        problems.add("parameter " + row + ": " + problem);
      } else if (rowOf.containsKey(key)) {
        problems.add(
            "parameter "
                + row
                + ": key '"
                + key
                + "' is given twice (also parameter "
                + rowOf.get(key)
                + ")");
      } else {
        rowOf.put(key, row);
        params.put(key, value);
      }
    }
    if (params.size() > MAX_PARAMS) {
      problems.add("at most " + MAX_PARAMS + " parameters, got " + params.size());
    }
    if (!problems.isEmpty()) {
      throw new UiServer.BadRequestException(
          "the run's parameters are not valid: " + String.join("; ", problems));
    }
    return params;
  }

  /** The same checks for the JSON API's {@code params} object. */
  static Map<String, String> check(Map<String, String> params) {
    return parse(List.copyOf(params.keySet()), new ArrayList<>(params.values()));
  }

  private static String keyProblem(String key, String value) {
    if (key.isEmpty()) {
      return "the value '" + shorten(value) + "' has no key";
    }
    if (key.length() > MAX_KEY) {
      return "key '" + shorten(key) + "' is longer than " + MAX_KEY + " characters";
    }
    if (!KEY.matcher(key).matches()) {
      return "key '" + key + "' may only contain letters, digits, '_', '.' and '-'";
    }
    if (value.length() > MAX_VALUE) {
      return "the value of '" + key + "' is longer than " + MAX_VALUE + " characters";
    }
    return null;
  }

  private static String shorten(String text) {
    return text.length() <= 20 ? text : text.substring(0, 20) + "…";
  }
}
