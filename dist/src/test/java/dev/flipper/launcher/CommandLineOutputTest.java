package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.launcher.logging.CliLoggingProvider;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line tools in their own JVM, as the launcher runs them, against a master that is not
 * there: the client's reconnect attempts must not reach stdout (only warnings and errors are
 * logged, on stderr), so that {@code --json} output stays parseable and the error is on stderr with
 * a non-zero exit code.
 */
@Tag("processes")
class CommandLineOutputTest {
  @TempDir Path dir;

  @Test
  void workflowStatusJsonAgainstAnAbsentMasterKeepsStdoutClean() throws Exception {
    int dead = deadPort();
    try (FlipperProcess tool =
        FlipperProcess.start(dir, "workflow", "status", "--json", "--set", "master.port=" + dead)) {
      int exit = tool.awaitExit(Duration.ofSeconds(60));

      assertThat(exit).as(tool.output()).isNotZero();
      assertStdoutEmptyOrJson(tool.out());
      assertThat(String.join("\n", tool.err()))
          .as(tool.output())
          .contains(":" + dead)
          .doesNotContain("INFO");
    }
  }

  @Test
  void workflowStatusWithTheLoggingOfBinFlipperPrintsOnlyItsOwnLines() throws Exception {
    int dead = deadPort();
    try (FlipperProcess tool =
        FlipperProcess.start(
            dir,
            List.of(
                "-Dflipper.cli=true",
                "-Dslf4j.provider=" + CliLoggingProvider.class.getName(),
                "-Dslf4j.internal.verbosity=WARN"),
            "workflow",
            "status",
            "--json",
            "--set",
            "master.port=" + dead)) {
      int exit = tool.awaitExit(Duration.ofSeconds(60));

      assertThat(exit).as(tool.output()).isNotZero();
      assertStdoutEmptyOrJson(tool.out());
      assertThat(tool.err())
          .as(tool.output())
          .allSatisfy(line -> assertThat(line).startsWith("flipper: "))
          .anySatisfy(line -> assertThat(line).contains(":" + dead));
    }
  }

  @Test
  void tokensJsonAgainstAnAbsentMasterKeepsStdoutClean() throws Exception {
    int dead = deadPort();
    try (FlipperProcess tool =
        FlipperProcess.start(
            dir, "tokens", "--json", "--port", Integer.toString(dead), "ls", "/")) {
      int exit = tool.awaitExit(Duration.ofSeconds(60));

      assertThat(exit).as(tool.output()).isNotZero();
      assertStdoutEmptyOrJson(tool.out());
      assertThat(String.join("\n", tool.err()))
          .as(tool.output())
          .contains(Integer.toString(dead))
          .doesNotContain("INFO");
    }
  }

  private static void assertStdoutEmptyOrJson(List<String> stdout) throws Exception {
    String text = String.join("\n", stdout).strip();
    if (!text.isEmpty()) {
      new ObjectMapper().readTree(text); // throws on anything but one JSON document
    }
  }

  /** A port nothing listens on: bound once by the system, then closed. */
  private static int deadPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
