package dev.flipper.workflow.master.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.Token;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} output of the token tool: one compact document, fields in a fixed order.
 * Stateless.
 */
final class TokenJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TokenJson() {}

  static String tokens(List<Token> tokens) {
    List<Object> list = new ArrayList<>();
    for (Token token : tokens) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", token.name());
      m.put("version", token.version());
      m.put("owner", token.owner());
      m.put("expirationTime", token.expirationTime());
      m.put(
          "expiresAt",
          token.expirationTime() == 0 || token.expirationTime() == Long.MAX_VALUE
              ? null
              : Instant.ofEpochSecond(
                      Math.min(token.expirationTime(), Instant.MAX.getEpochSecond()))
                  .toString());
      m.put("priority", token.priority());
      m.put("data", token.data());
      list.add(m);
    }
    return write(Map.of("tokens", list));
  }

  static String groups(Map<String, Integer> counts) {
    return write(Map.of("groups", counts));
  }

  private static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
