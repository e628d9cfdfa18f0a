package dev.flipper.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> QUEUE_KEYS = ConfigSchema.children("queue");

  @Test
  void suggestsTyposSwapsCaseAndPrefixes() {
    assertThat(Suggestions.closest("prot", QUEUE_KEYS)).hasValue("port");
    assertThat(Suggestions.closest("adminport", QUEUE_KEYS)).hasValue("adminPort");
    assertThat(Suggestions.closest("claimTimout", QUEUE_KEYS)).hasValue("claimTimeout");
    assertThat(Suggestions.closest("maxBody", QUEUE_KEYS)).hasValue("maxBodyBytes");
  }

  @Test
  void staysQuietWhenNothingIsClose() {
    assertThat(Suggestions.closest("colour", QUEUE_KEYS)).isEmpty();
    assertThat(Suggestions.closest("x", QUEUE_KEYS)).isEmpty();
  }

  @Test
  void countsASwapOfNeighboursAsOneEdit() {
    assertThat(Suggestions.distance("prot", "port")).isEqualTo(1);
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
  }
}
