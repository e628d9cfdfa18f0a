package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.config.FlipperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWatcherTest {
  @TempDir Path dir;

  @Test
  void appliesAChangedFileWithTheSameOverridesAndKeepsTheRunningConfigWhenTheFileIsInvalid() throws Exception {
    Path file = dir.resolve("flipper.yaml");
    Files.writeString(file, "queue:\n  priorityLevels: 3\n");
    List<FlipperConfig> applied = new ArrayList<>();
    try (ConfigWatcher watcher = new ConfigWatcher(file, List.of("queue.port=9011"), Map.of(), applied::add)) {
      assertThat(watcher.checkOnce()).as("unchanged file").isFalse();

      Files.writeString(file, "queue:\n  priorityLevels: 5\n");
      assertThat(watcher.checkOnce()).isTrue();
      assertThat(applied).hasSize(1);
      assertThat(applied.get(0).queue().priorityLevels()).isEqualTo(5);
      assertThat(applied.get(0).queue().port()).as("--set still applies").isEqualTo(9011);

      Files.writeString(file, "queue:\n  priorityLevels: many\n");
      assertThat(watcher.checkOnce()).as("invalid file is not applied").isFalse();
      assertThat(watcher.checkOnce()).as("and not retried until it changes again").isFalse();
      assertThat(applied).hasSize(1);

      Files.delete(file);
      assertThat(watcher.checkOnce()).as("a missing file is not a change").isFalse();
    }
  }
}
