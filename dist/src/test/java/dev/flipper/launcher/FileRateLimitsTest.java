package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.workflow.ui.queue.RateLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue dashboard's rate limits come from queue.rateLimitFile, read as the queue server reads
 * it.
 */
class FileRateLimitsTest {
  @TempDir Path dir;

  @Test
  void readsTheFileAtEachCallAndSaysWhereTheLimitsComeFrom() throws Exception {
    Path file = dir.resolve("rates.json");
    Files.writeString(
        file, "{\"queues\": [{\"name\": \"mail\", \"queueConfig\": {\"maxJobsPerSecond\": 50}}]}");
    RateLimits limits = FileRateLimits.of(file.toString());

    assertThat(limits.current()).isEqualTo(Map.of("mail", 50.0));
    assertThat(limits.describe()).contains(file.toString()).doesNotContain("none are shown");

    Files.writeString(
        file, "{\"queues\": [{\"name\": \"mail\", \"queueConfig\": {\"maxJobsPerSecond\": 5}}]}");
    assertThat(limits.current()).isEqualTo(Map.of("mail", 5.0));
  }

  @Test
  void aBadOrMissingFileShowsNoLimitsAndSaysWhy() throws Exception {
    Path file = dir.resolve("rates.json");
    Files.writeString(file, "{\"queues\": [{\"name\": \"mail\"}]}");

    assertThat(FileRateLimits.of(file.toString()).current()).isEmpty();
    assertThat(FileRateLimits.of(file.toString()).describe())
        .contains("not valid", "maxJobsPerSecond");
    assertThat(FileRateLimits.of(dir.resolve("missing.json").toString()).describe())
        .contains("cannot read it");
    assertThat(FileRateLimits.of("")).isSameAs(RateLimits.NONE);
  }
}
