package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RateLimitFileTest {

  @Test
  void readsPinLatersSchema() {
    String json =
        """
        {"queues": [
          {"name": "mail", "queueConfig": {"maxJobsPerSecond": 100}},
          {"name": "slow", "queueConfig": {"maxJobsPerSecond": 0.1, "someFutureSetting": true}},
          {"name": "paused", "queueConfig": {"maxJobsPerSecond": 0}}
        ]}""";

    assertThat(RateLimitFile.parse(json))
        .containsExactlyInAnyOrderEntriesOf(Map.of("mail", 100.0, "slow", 0.1, "paused", 0.0));
  }

  @Test
  void noQueuesMeansNoLimits() {
    assertThat(RateLimitFile.parse("{}")).isEmpty();
    assertThat(RateLimitFile.parse("{\"queues\": []}")).isEmpty();
  }

  @Test
  void rejectsTyposNegativeRatesAndDuplicates() {
    assertThatThrownBy(() -> RateLimitFile.parse("{\"queuez\": []}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queuez");
    assertThatThrownBy(
            () ->
                RateLimitFile.parse(
                    "{\"queues\": [{\"name\": \"q\", \"queueConfig\": {\"maxJobsPerSecond\": -1}}]}"))
        .hasMessageContaining("maxJobsPerSecond must be a finite number >= 0");
    assertThatThrownBy(
            () -> RateLimitFile.parse("{\"queues\": [{\"name\": \"q\", \"queueConfig\": {}}]}"))
        .hasMessageContaining("queues[0] (queue q) needs");
    assertThatThrownBy(
            () ->
                RateLimitFile.parse(
                    "{\"queues\": [{\"name\": \"q\", \"queueConfig\": "
                        + "{\"maxJobsPerSecond\": 1}}, {\"name\": \"q\", \"queueConfig\": {\"maxJobsPerSecond\": 2}}]}"))
        .hasMessageContaining("listed twice");
    assertThatThrownBy(() -> RateLimitFile.parse("{not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1");
  }
}
