package dev.flipper.token.jdbc.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text for the run history's string maps (parameters, logs) and string lists (failed jobs): a
 * JSON object of strings keeps its order, a JSON array of strings. queue-mysql has no JSON library,
 * and these need none; the text stays readable in SQL ({@code JSON_VALUE(params, '$.date')} on
 * MariaDB). Reads only what {@link #object} and {@link #array} write, plus any JSON whitespace.
 * Stateless.
 */
public final class JsonStrings {

  private JsonStrings() {}

  /** {@code {"key":"value",...}} in the map's order. */
  public static String object(Map<String, String> map) {
    StringBuilder json = new StringBuilder("{");
    for (Map.Entry<String, String> entry : map.entrySet()) {
      if (json.length() > 1) {
        json.append(',');
      }
      quote(json, entry.getKey()).append(':');
      quote(json, entry.getValue());
    }
    return json.append('}').toString();
  }

  /** {@code ["a","b",...]}. */
  public static String array(List<String> list) {
    StringBuilder json = new StringBuilder("[");
    for (String value : list) {
      if (json.length() > 1) {
        json.append(',');
      }
      quote(json, value);
    }
    return json.append(']').toString();
  }

  /** The map {@link #object} wrote, in its order. */
  public static Map<String, String> parseObject(String json) {
    Reader reader = new Reader(json);
    Map<String, String> map = new LinkedHashMap<>();
    reader.expect('{');
    if (!reader.skipIf('}')) {
      do {
        String key = reader.string();
        reader.expect(':');
        map.put(key, reader.string());
      } while (reader.skipIf(','));
      reader.expect('}');
    }
    reader.end();
    return map;
  }

  /** The list {@link #array} wrote. */
  public static List<String> parseArray(String json) {
    Reader reader = new Reader(json);
    List<String> list = new ArrayList<>();
    reader.expect('[');
    if (!reader.skipIf(']')) {
      do {
        list.add(reader.string());
      } while (reader.skipIf(','));
      reader.expect(']');
    }
    reader.end();
    return list;
  }

  private static StringBuilder quote(StringBuilder json, String value) {
    json.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"');
  }

  /** A cursor over JSON text that fails with where and what it expected. */
  private static final class Reader {
    private final String json;
    private int at;

    Reader(String json) {
      this.json = json;
    }

    void expect(char c) {
      skipSpace();
      if (at >= json.length() || json.charAt(at) != c) {
        throw malformed("'" + c + "'");
      }
      at++;
    }

    boolean skipIf(char c) {
      skipSpace();
      if (at < json.length() && json.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    void end() {
      skipSpace();
      if (at != json.length()) {
        throw malformed("the end");
      }
    }

    String string() {
      expect('"');
      StringBuilder value = new StringBuilder();
      while (at < json.length()) {
        char c = json.charAt(at++);
        if (c == '"') {
          return value.toString();
        }
        if (c != '\\') {
          value.append(c);
          continue;
        }
        if (at >= json.length()) {
          break;
        }
        char escaped = json.charAt(at++);
        switch (escaped) {
          case '"', '\\', '/' -> value.append(escaped);
          case 'b' -> value.append('\b');
          case 'f' -> value.append('\f');
          case 'n' -> value.append('\n');
          case 'r' -> value.append('\r');
          case 't' -> value.append('\t');
          case 'u' -> {
            if (at + 4 > json.length()) {
              throw malformed("four hex digits");
            }
            value.append((char) Integer.parseInt(json.substring(at, at + 4), 16));
            at += 4;
          }
          default -> throw malformed("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        }
      }
      throw malformed("a closing '\"'");
    }

    private void skipSpace() {
      while (at < json.length() && " \t\r\n".indexOf(json.charAt(at)) >= 0) {
        at++;
      }
    }

    private IllegalStateException malformed(String expected) {
      return new IllegalStateException(
          "malformed JSON in the run history at character "
              + at
              + ": expected "
              + expected
              + " in "
              + json);
    }
  }
}
