package dev.flipper.queue.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.server.RateLimitFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {
  @TempDir Path dir;

  private final List<Map<String, Double>> applied = new ArrayList<>();

  private WatchedFile<Map<String, Double>> watch(Path file) {
    return new WatchedFile<>(file, "rate-limit file", RateLimitFile::parse, applied::add);
  }

  @Test
  void appliesEachNewVersionOnceAndKeepsTheLastGoodOneWhenBroken() throws Exception {
    Path file = dir.resolve("limits.json");
    Files.writeString(file, limits("q", 1));
    WatchedFile<Map<String, Double>> watched = watch(file);
    watched.loadInitial();
    watched.poll();
    assertThat(applied).containsExactly(Map.of("q", 1.0));

    Files.writeString(file, "{broken");
    watched.poll();
    watched.poll();
    Files.delete(file);
    watched.poll();
    assertThat(applied).hasSize(1);

    Files.writeString(file, limits("q", 2));
    watched.poll();
    assertThat(applied).containsExactly(Map.of("q", 1.0), Map.of("q", 2.0));
  }

  @Test
  void aMissingOrBrokenFileFailsAtStart() throws Exception {
    assertThatThrownBy(() -> watch(dir.resolve("absent.json")).loadInitial())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absent.json");
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "[]");
    assertThatThrownBy(() -> watch(broken).loadInitial())
        .hasMessageContaining("broken.json is invalid");
  }

  static String limits(String queue, double rate) {
    return "{\"queues\": [{\"name\": \""
        + queue
        + "\", \"queueConfig\": {\"maxJobsPerSecond\": "
        + rate
        + "}}]}";
  }
}
