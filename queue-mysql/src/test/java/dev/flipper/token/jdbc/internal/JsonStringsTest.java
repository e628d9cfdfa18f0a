package dev.flipper.token.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonStringsTest {

  @Test
  void mapsAndListsComeBackAsWrittenInTheirOrder() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("z", "last key first");
    map.put("quote\"back\\slash", "line\nbreak\ttab\r\u0001 ünïcödé 😀");
    map.put("", "");
    List<String> list = List.of("b", "a\"", "");

    String json = JsonStrings.object(map);

    assertThat(json)
        .startsWith("{\"z\":\"last key first\",\"quote\\\"back\\\\slash\":\"line\\nbreak");
    assertThat(json).contains("\\u0001");
    assertThat(JsonStrings.parseObject(json)).containsExactlyEntriesOf(map);
    assertThat(JsonStrings.parseArray(JsonStrings.array(list))).containsExactlyElementsOf(list);
    assertThat(JsonStrings.parseObject("{}")).isEmpty();
    assertThat(JsonStrings.parseArray("[]")).isEmpty();
  }

  @Test
  void readsJsonWhitespaceAndStandardEscapes() {
    assertThat(JsonStrings.parseObject(" { \"a\" : \"\\/\\b\\f\\u00e9\" } "))
        .containsExactlyEntriesOf(Map.of("a", "/\b\fé"));
    assertThat(JsonStrings.parseArray("[ \"x\" , \"y\" ]")).containsExactly("x", "y");
  }

  @Test
  void malformedTextIsReportedWithItsPosition() {
    assertThatThrownBy(() -> JsonStrings.parseObject("{\"a\":1}"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("at character 5: expected '\"'");
    assertThatThrownBy(() -> JsonStrings.parseArray("[\"a\"] x"))
        .hasMessageContaining("expected the end");
    assertThatThrownBy(() -> JsonStrings.parseArray("[\"a")).hasMessageContaining("a closing '\"'");
  }
}
