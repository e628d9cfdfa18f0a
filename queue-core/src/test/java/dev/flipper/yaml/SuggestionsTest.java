package dev.flipper.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> QUEUE_KEYS =
      List.of(
          "port",
          "adminPort",
          "priorityLevels",
          "maxBodyBytes",
          "maxFrameBytes",
          "claimTimeout",
          "succeededTtl",
          "failedTtl",
          "monitorInterval",
          "monitorBatchSize",
          "rateLimitFile");

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

  @Test
  void unknownKeySuggestsASiblingOrListsThem() {
    assertThat(Suggestions.unknownKey("queue", "prot", QUEUE_KEYS, List.of()))
        .isEqualTo("unknown key 'queue.prot' (did you mean 'queue.port'?)");
    assertThat(Suggestions.unknownKey("", "qeue", List.of("queue", "master"), List.of()))
        .isEqualTo("unknown section 'qeue' (did you mean 'queue'?)");
    assertThat(Suggestions.unknownKey("master", "colour", List.of("port"), List.of()))
        .isEqualTo("unknown key 'master.colour' (valid keys in 'master': port)");
    assertThat(
            Suggestions.unknownKey(
                "master", "claimTimeout", List.of("port"), List.of("queue.claimTimeout")))
        .isEqualTo("unknown key 'master.claimTimeout' (did you mean 'queue.claimTimeout'?)");
  }
}
