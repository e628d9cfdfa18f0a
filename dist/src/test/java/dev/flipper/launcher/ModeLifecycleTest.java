package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each mode, alone and all together in one JVM, starts as a separate process, answers /health with
 * 200 and stops on SIGTERM with exit code 0. The single-mode processes run side by side to keep the
 * test short.
 */
@Tag("processes")
class ModeLifecycleTest {
  private static final List<String> MODES =
      Arrays.stream(Mode.values()).map(Mode::modeName).toList();
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;

  /** Every port 0, the H2 database under the temp dir. */
  private Path config(String... extraLines) throws IOException {
    String yaml =
        """
        storage:
          jdbc:
            shards: [{name: "1", url: "jdbc:h2:file:%s;MODE=MySQL;AUTO_SERVER=TRUE"}]
        queue: {port: 0, adminPort: 0, monitorInterval: 1s}
        master: {port: 0, adminPort: 0}
        scheduler: {adminPort: 0}
        workers: {adminPort: 0}
        ui: {port: 0, adminPort: 0}
        """
                .formatted(dir.resolve("data").resolve("flipper").toAbsolutePath())
            + String.join("\n", extraLines);
    Path file = dir.resolve("conf.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  @Test
  void eachModeAloneStartsReportsReadyAndStopsOnSigterm() throws Exception {
    Path config = config();
    List<FlipperProcess> processes = new ArrayList<>();
    try {
      for (String mode : MODES) {
        processes.add(FlipperProcess.start(dir, "-c", config.toString(), "-m", mode));
      }
      for (int i = 0; i < MODES.size(); i++) {
        String mode = MODES.get(i);
        Map<String, String> urls = processes.get(i).awaitReady(List.of(mode));
        assertThat(urls).as("ready lines of mode " + mode).containsOnlyKeys(mode);
        assertHealthy(mode, urls.get(mode));
      }
      processes.forEach(FlipperProcess::sigterm);
      for (int i = 0; i < MODES.size(); i++) {
        assertStoppedCleanly(MODES.get(i), processes.get(i));
      }
    } finally {
      processes.forEach(FlipperProcess::close);
    }
  }

  @Test
  void allModesShareOneJvmAndStopInReverseOrder() throws Exception {
    Path logFile = dir.resolve("logs").resolve("flipper-all.log");
    Path config =
        config("logging: {file: \"" + dir.resolve("logs").resolve("flipper-{mode}.log") + "\"}");
    try (FlipperProcess flipper =
        FlipperProcess.start(dir, "-c", config.toString(), "-m", String.join(",", MODES))) {
      Map<String, String> urls = flipper.awaitReady(MODES);

      assertThat(urls.keySet()).containsExactlyElementsOf(MODES);
      assertThat(urls.values()).as("each mode has its own admin port").doesNotHaveDuplicates();
      for (String mode : MODES) {
        assertHealthy(mode, urls.get(mode));
      }

      flipper.sigterm();

      assertStoppedCleanly("all", flipper);
      assertThat(flipper.out())
          .as("with logging.file, stdout has only the launcher's lines")
          .allMatch(l -> l.startsWith("flipper: "));
      List<String> stopped =
          Files.readAllLines(logFile).stream()
              .filter(l -> l.matches(".* - \\w+ stopped"))
              .map(l -> l.replaceAll(".* \\[(\\w+)\\] .* - (\\w+) stopped", "$1=$2"))
              .toList();
      List<String> reversed = new ArrayList<>();
      for (int i = MODES.size() - 1; i >= 0; i--) {
        reversed.add(MODES.get(i) + "=" + MODES.get(i));
      }
      assertThat(stopped)
          .as("stop order, each logged under its mode")
          .containsExactlyElementsOf(reversed);
    }
  }

  @Test
  void badConfigExitsWithCode2AndPrintsOnlyTheError() throws Exception {
    Path config = dir.resolve("conf.yaml");
    Files.writeString(config, "queue:\n  prot: 9011\n");

    try (FlipperProcess flipper = FlipperProcess.start(dir, "-c", "conf.yaml", "-m", "queue")) {
      assertThat(flipper.awaitExit(STOP_TIMEOUT)).isEqualTo(2);
      assertThat(flipper.err())
          .containsExactly("conf.yaml:2: unknown key 'queue.prot' (did you mean 'queue.port'?)");
      assertThat(flipper.out()).isEmpty();
    }
  }

  private static void assertHealthy(String mode, String adminUrl) throws Exception {
    HttpResponse<String> health = FlipperProcess.get(adminUrl + "/health");
    assertThat(health.statusCode()).as("/health of " + mode + ": " + health.body()).isEqualTo(200);
    assertThat(health.body()).contains("\"daemon\":\"" + mode + "\"", "\"status\":\"ready\"");
    assertThat(FlipperProcess.get(adminUrl + "/metrics").statusCode())
        .as("/metrics of " + mode)
        .isEqualTo(200);
    assertThat(FlipperProcess.get(adminUrl + "/stats.txt").statusCode())
        .as("/stats.txt of " + mode)
        .isEqualTo(200);
  }

  private static void assertStoppedCleanly(String what, FlipperProcess flipper)
      throws InterruptedException {
    int exit = flipper.awaitExit(STOP_TIMEOUT);
    assertThat(exit).as("exit code of " + what + "\n" + flipper.output()).isZero();
    assertThat(flipper.out())
        .as("output of " + what)
        .contains("flipper: stopping on SIGTERM", "flipper: stopped cleanly");
    assertThat(flipper.err()).as("stderr of " + what).isEmpty();
  }
}
