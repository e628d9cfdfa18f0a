package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ConfigWatcherTest {
  private static final Set<String> QUEUE_LIVE_KEYS = Mode.liveKeys(List.of(Mode.QUEUE));

  @TempDir Path dir;

  private final Logger logger = (Logger) LoggerFactory.getLogger(ConfigWatcher.class);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private Level levelBefore;

  @BeforeEach
  void captureTheLog() {
    levelBefore = logger.getLevel();
    logger.setLevel(Level.INFO); // a command-line test in this JVM may have quieted dev.flipper
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void releaseTheLog() {
    logger.detachAppender(logged);
    logger.setLevel(levelBefore);
  }

  private ConfigWatcher watcher(
      Path file, List<String> overrides, Set<String> liveKeys, List<FlipperConfig> applied) {
    FlipperConfig started = ConfigLoader.load(file, overrides, Map.of());
    return new ConfigWatcher(file, overrides, Map.of(), started, liveKeys, applied::add);
  }

  @Test
  void appliesAChangedFileWithTheSameOverridesAndKeepsTheRunningConfigWhenTheFileIsInvalid()
      throws Exception {
    Path file = dir.resolve("flipper.yaml");
    Files.writeString(file, "queue:\n  priorityLevels: 3\n");
    List<FlipperConfig> applied = new ArrayList<>();
    try (ConfigWatcher watcher =
        watcher(file, List.of("queue.port=9011"), QUEUE_LIVE_KEYS, applied)) {
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

  @Test
  void saysInOneLineWhichChangedKeysWaitForARestart() throws Exception {
    Path file = dir.resolve("flipper.yaml");
    String shard =
        "storage:\n  jdbc:\n    shards:\n      - {name: \"1\", url: \"jdbc:h2:mem:a\"}\n";
    Files.writeString(file, shard);
    try (ConfigWatcher watcher = watcher(file, List.of(), QUEUE_LIVE_KEYS, new ArrayList<>())) {
      Files.writeString(file, shard + "      - {name: \"2\", url: \"jdbc:h2:mem:b\"}\n");
      assertThat(watcher.checkOnce()).isTrue();

      Files.writeString(
          file,
          shard
              + "      - {name: \"2\", url: \"jdbc:h2:mem:b\"}\n"
              + "queue:\n  port: 9011\n  claimTimeout: 5m\n# a comment\n");
      assertThat(watcher.checkOnce()).isTrue();

      Files.writeString(
          file,
          shard
              + "      - {name: \"2\", url: \"jdbc:h2:mem:b\"}\n"
              + "queue:\n  port: 9011\n  claimTimeout: 5m\n# another comment\n");
      assertThat(watcher.checkOnce()).isTrue();
    }

    assertThat(logged.list)
        .extracting(e -> e.getLevel() + " " + e.getFormattedMessage())
        .containsExactly(
            "INFO config file " + file + " changed: applied storage.jdbc.shards",
            "WARN config file "
                + file
                + " changed: nothing to apply now; queue.port, queue.claimTimeout take effect "
                + "only after a restart (the running daemons keep the values they started with)",
            "WARN config file "
                + file
                + " changed: nothing to apply now; queue.port, queue.claimTimeout take effect "
                + "only after a restart (the running daemons keep the values they started with)");
  }

  @Test
  void withoutTheQueueModeShardsWaitForARestartToo() throws Exception {
    Path file = dir.resolve("flipper.yaml");
    Files.writeString(file, "workers:\n  count: 2\n");
    try (ConfigWatcher watcher =
        watcher(file, List.of(), Mode.liveKeys(List.of(Mode.WORKERS)), new ArrayList<>())) {
      Files.writeString(
          file,
          "workers:\n  count: 4\nstorage:\n  jdbc:\n    shards: [{name: b, url: \"jdbc:h2:mem:b\"}]\n");
      assertThat(watcher.checkOnce()).isTrue();
    }

    assertThat(logged.list)
        .extracting(e -> e.getLevel() + " " + e.getFormattedMessage())
        .containsExactly(
            "WARN config file "
                + file
                + " changed: nothing to apply now; storage.jdbc.shards, workers.count take "
                + "effect only after a restart (the running daemons keep the values they started with)");
  }
}
