package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's Dockerfile: checked with the linter dockerfile-utils (pinned, installed from npm
 * into the checkout's .tools/ by scripts/ensure-services.sh, since hadolint is not in Debian), and
 * built with {@code docker build} on machines where a Docker daemon answers.
 */
class DockerfileLintTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path DOCKERFILE = ROOT.resolve("Dockerfile");
  private static final Path LINTER = ROOT.resolve(".tools/node_modules/.bin/dockerfile-utils");

  @TempDir Path dir;

  @Test
  @Tag("tools")
  void linterReportsNoErrorsOrWarnings() throws Exception {
    assumeLinterInstalled();
    Result lint = run(60, LINTER.toString(), "lint", "--json", DOCKERFILE.toString());
    assertThat(lint.exitCode())
        .as("dockerfile-utils lint %s:\n%s", DOCKERFILE, lint.output())
        .isZero();
    assertThat(lint.output().strip()).as("diagnostics for %s", DOCKERFILE).isEqualTo("[]");
  }

  /**
   * The linter can fail: a Dockerfile with an invalid HEALTHCHECK duration and an empty USER is
   * rejected.
   */
  @Test
  @Tag("tools")
  void linterRejectsABrokenDockerfile() throws Exception {
    assumeLinterInstalled();
    Path broken = dir.resolve("Dockerfile");
    Files.writeString(
        broken, "FROM eclipse-temurin:17-jre\nUSER\nHEALTHCHECK --interval=often CMD true\n");
    Result lint = run(60, LINTER.toString(), "lint", "--json", broken.toString());
    assertThat(lint.exitCode()).as(lint.output()).isEqualTo(1);
    assertThat(lint.output())
        .contains("\"instructionLine\":1", "\"instructionLine\":2", "\"severity\":\"error\"");
  }

  /**
   * What the issue asks of the image, which a linter does not know: multi-stage, non-root, health
   * check.
   */
  @Test
  void imageIsMultiStageNonRootAndHealthChecked() throws IOException {
    List<String> instructions =
        Files.readAllLines(DOCKERFILE).stream()
            .filter(line -> !line.isBlank() && !line.startsWith("#") && !line.startsWith(" "))
            .toList();
    assertThat(instructions).filteredOn(line -> line.startsWith("FROM ")).hasSize(2);
    assertThat(instructions).contains("COPY --from=build /out /opt/flipper", "USER flipper");
    assertThat(Files.readString(DOCKERFILE))
        .contains("CMD curl -fsS \"http://127.0.0.1:${FLIPPER_HEALTH_PORT}/health\"");
  }

  @Test
  @Tag("tools")
  void dockerBuildsTheImageWhereDockerRuns() throws Exception {
    assumeTrue(
        dockerAnswers(),
        "no Docker daemon answers `docker info`: the Dockerfile is only linted here");
    String tag = "flipper-test:" + ProcessHandle.current().pid();
    try {
      // The first build downloads the base images and every Maven dependency: a generous limit.
      Result build = run(1800, "docker", "build", "-q", "-t", tag, ROOT.toString());
      assertThat(build.exitCode()).as("docker build:\n%s", build.output()).isZero();
      Result user = run(60, "docker", "image", "inspect", "-f", "{{.Config.User}}", tag);
      assertThat(user.output().strip()).isEqualTo("flipper");
    } finally {
      run(120, "docker", "image", "rm", "-f", tag);
    }
  }

  private static void assumeLinterInstalled() {
    assumeTrue(
        Files.isExecutable(LINTER),
        "the Dockerfile linter is missing at "
            + LINTER
            + ": run scripts/ensure-services.sh (installs it from npm)");
  }

  private static boolean dockerAnswers() {
    try {
      return run(30, "docker", "info").exitCode() == 0;
    } catch (IOException | AssertionError e) {
      return false; // no docker binary, or a daemon that does not answer within 30 s
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private record Result(int exitCode, String output) {}

  private static Result run(int timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    // Read on another thread so that a hung command still hits the time limit below.
    StringBuilder output = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try {
                output.append(
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                output.append(e);
              }
            });
    reader.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
    }
    reader.join(TimeUnit.SECONDS.toMillis(10)); // join: the reader's output is visible here
    return new Result(process.exitValue(), output.toString());
  }
}
