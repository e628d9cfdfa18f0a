package dev.flipper.workflow.tokens;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.flipper.token.Token;

/**
 * JSON of the engine's token data. Public fields only (no getters), nulls left out (a missing field
 * means its default), unknown fields kept by {@link TokenData}. Thread-safe.
 */
public final class Json {
  public static final ObjectMapper MAPPER =
      new ObjectMapper()
          .setVisibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
          .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
          .setSerializationInclusion(JsonInclude.Include.NON_NULL)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);

  private Json() {}

  public static String write(Object data) {
    try {
      return MAPPER.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "cannot write " + data.getClass().getSimpleName() + " as JSON", e);
    }
  }

  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "cannot read " + type.getSimpleName() + " from token data: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The data of a token; a {@link DamagedTokenException} naming the token when it is not what it
   * should be.
   */
  public static <T> T read(Token token, Class<T> type) {
    if (token.data() == null) {
      throw new DamagedTokenException(
          new DamagedToken(token.name(), "no data; expected " + type.getSimpleName()));
    }
    try {
      return MAPPER.readValue(token.data(), type);
    } catch (JsonProcessingException e) {
      throw new DamagedTokenException(
          new DamagedToken(
              token.name(), "not " + type.getSimpleName() + " JSON: " + e.getOriginalMessage()));
    }
  }

  /** A deep copy, through JSON. */
  public static <T> T copy(T data, Class<T> type) {
    return read(write(data), type);
  }
}
