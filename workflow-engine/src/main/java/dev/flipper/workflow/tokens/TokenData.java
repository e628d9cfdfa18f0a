package dev.flipper.workflow.tokens;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The common part of the engine's token data: {@code kind}, {@code schema}, and the fields this
 * release does not know. Those are kept and written back, so a token written by a newer release
 * survives an older writer (docs/tokens.md, "Token data"). Mutable, not thread-safe: decode,
 * change, encode.
 */
public abstract class TokenData {
  public String kind;
  public int schema = 1;
  private final Map<String, Object> unknown = new LinkedHashMap<>();

  protected TokenData(String kind) {
    this.kind = kind;
  }

  @JsonAnySetter
  void unknown(String key, Object value) {
    unknown.put(key, value);
  }

  @JsonAnyGetter
  Map<String, Object> unknown() {
    return unknown;
  }
}
