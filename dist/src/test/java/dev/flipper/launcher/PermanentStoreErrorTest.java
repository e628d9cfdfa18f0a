package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 item 10: an H2 URL with a setting the driver refuses ran "not ready" for ever (the pool
 * retried it as if the database were down) and exited 0 on SIGTERM. A store that can never open now
 * fails the start: one line naming the mode, the shard and the driver's message, exit code 1, well
 * before the pool's 30 s wait.
 */
@Tag("processes")
class PermanentStoreErrorTest {
  /** Well under the 30 s an H2 pool waits for a connection: the start must not wait for it. */
  private static final Duration EXIT_WITHIN = Duration.ofSeconds(25);

  @TempDir Path dir;

  @Test
  void aQueueOnAnH2UrlWithAnUnsupportedSettingExitsWithAnError() throws Exception {
    Path config = config();

    try (FlipperProcess flipper =
        FlipperProcess.start(dir, "-c", config.toString(), "-m", "queue")) {
      assertThat(flipper.awaitExit(EXIT_WITHIN)).as(flipper.output()).isEqualTo(1);
      assertThat(String.join("\n", flipper.err()))
          .contains("flipper: queue failed to start: shard '1'")
          .contains("NO_SUCH_SETTING")
          .contains("retrying will not help");
      assertThat(flipper.out()).noneMatch(line -> line.contains("ready"));
    }
  }

  @Test
  void aMasterOnAnH2UrlWithAnUnsupportedSettingExitsWithAnError() throws Exception {
    Path config = config();

    try (FlipperProcess flipper =
        FlipperProcess.start(dir, "-c", config.toString(), "-m", "master")) {
      assertThat(flipper.awaitExit(EXIT_WITHIN)).as(flipper.output()).isEqualTo(1);
      assertThat(String.join("\n", flipper.err()))
          .contains("flipper: master failed to start")
          .contains("NO_SUCH_SETTING")
          .contains("retrying will not help");
    }
  }

  private Path config() throws Exception {
    String url =
        "jdbc:h2:file:"
            + dir.resolve("data").resolve("flipper").toAbsolutePath()
            + ";MODE=MySQL;NO_SUCH_SETTING=1";
    Path file = dir.resolve("conf.yaml");
    Files.writeString(
        file,
        """
        storage:
          jdbc:
            shards: [{name: "1", url: "%s"}]
        queue: {port: 0, adminPort: 0}
        master: {port: 0, adminPort: 0}
        """
            .formatted(url));
    return file;
  }
}
