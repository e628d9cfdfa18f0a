package dev.flipper.admin.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code promtool check metrics} (from Debian's prometheus package, installed by
 * scripts/ensure-services.sh; without it the calling test fails) on a /metrics text.
 */
public final class Promtool {
  private Promtool() {}

  /** promtool's complaints (problems and lint warnings); empty when the text is clean. */
  public static String check(String metrics, Path scratchDir)
      throws IOException, InterruptedException {
    Path input = Files.writeString(scratchDir.resolve("metrics.txt"), metrics);
    Process process =
        new ProcessBuilder("promtool", "check", "metrics")
            .redirectInput(input.toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return process.exitValue() == 0 ? output.trim() : "exit " + process.exitValue() + ": " + output;
  }
}
