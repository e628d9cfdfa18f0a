package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's {@code ./flipper} script in a copy of a fresh clone (the script and the root
 * pom, no {@code target/}), with a fake {@code mvn} on the PATH that prints Maven's reactor lines
 * and makes a stub distribution whose {@code bin/flipper} echoes its arguments. Runs in a second,
 * not two minutes.
 */
class FlipperScriptTest {
  private static final Path REPO =
      Path.of(System.getProperty("user.dir")).getParent(); // surefire runs in dist/

  @TempDir Path clone;
  @TempDir Path bin;

  private Path mvnCalls;

  @BeforeEach
  void freshCloneAndFakeMaven() throws IOException {
    Files.copy(REPO.resolve("flipper"), clone.resolve("flipper"));
    Files.copy(REPO.resolve("pom.xml"), clone.resolve("pom.xml"));
    Files.createDirectories(clone.resolve("queue-core/src/main/java"));
    mvnCalls = bin.resolve("mvn-calls");
    executable(
        bin.resolve("mvn"),
        """
        #!/bin/sh
        echo "$*" >> "$FAKE_MVN_CALLS"
        echo "[INFO] Scanning for projects..."
        echo "[INFO] Building Flipper 0.1.0-SNAPSHOT                                  [1/3]"
        echo "[INFO] Building Flipper queue-core 0.1.0-SNAPSHOT                       [2/3]"
        if [ -n "$FAKE_MVN_FAIL" ]; then
          echo "[ERROR] /src/Broken.java:[3,1] class, interface, enum, or record expected"
          echo "[ERROR] BUILD FAILURE"
          exit 1
        fi
        echo "[INFO] Building tar: /somewhere/flipper.tar.gz"
        echo "[INFO] Building Flipper dist 0.1.0-SNAPSHOT                             [3/3]"
        mkdir -p "dist/target/flipper-$FAKE_VERSION/bin"
        printf '#!/bin/sh\\necho "distribution: $*"\\n' > "dist/target/flipper-$FAKE_VERSION/bin/flipper"
        chmod +x "dist/target/flipper-$FAKE_VERSION/bin/flipper"
        """);
  }

  @Test
  void aFreshCloneBuildsModuleByModuleThenRunsTheDemo() throws Exception {
    Result demo = flipper(Map.of(), "demo", "--set", "queue.port=0");

    assertThat(demo.exit).as(demo.toString()).isZero();
    assertThat(demo.out).isEqualTo("distribution: demo --set queue.port=0\n");
    assertThat(demo.err.lines().toList())
        .as(demo.toString())
        .startsWith(
            "flipper: building the distribution and the examples (mvn package -pl dist,examples -am -DskipTests;"
                + " log in target/flipper-build.log) ...")
        .contains(
            "flipper:   [1/3] Flipper", "flipper:   [2/3] queue-core", "flipper:   [3/3] dist")
        .anyMatch(
            l ->
                l.startsWith(
                    "flipper: built dist/target/flipper-" + VersionProvider.version() + " in "))
        .noneMatch(l -> l.contains("[INFO]"));
    assertThat(Files.readAllLines(mvnCalls))
        .as(
            "one build of the distribution and the examples (examples/README.md runs them), nothing installed")
        .singleElement()
        .asString()
        .contains("package", "-pl dist,examples")
        .doesNotContain("install");
  }

  @Test
  void aBuiltCloneIsRebuiltOnlyWhenASourceChanges() throws Exception {
    assertThat(flipper(Map.of(), "--version").exit).isZero();
    Result again = flipper(Map.of(), "-c", "conf.yaml", "-m", "queue");
    assertThat(again.out).isEqualTo("distribution: -c conf.yaml -m queue\n");
    assertThat(again.err).isEmpty();
    assertThat(Files.readAllLines(mvnCalls)).hasSize(1);

    Path source = clone.resolve("queue-core/src/main/java/Changed.java");
    Files.writeString(source, "class Changed {}\n");
    Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(60)));
    assertThat(flipper(Map.of(), "--version").exit).isZero();
    assertThat(Files.readAllLines(mvnCalls)).hasSize(2);
  }

  @Test
  void aFailedBuildSaysSoWithMavensErrors() throws Exception {
    Result demo = flipper(Map.of("FAKE_MVN_FAIL", "1"), "demo");

    assertThat(demo.exit).isEqualTo(1);
    assertThat(demo.out).isEmpty();
    assertThat(demo.err)
        .contains(
            "flipper:   [2/3] queue-core\nflipper: the build failed:\n"
                + "[ERROR] /src/Broken.java:[3,1] class, interface, enum, or record expected\n[ERROR] BUILD FAILURE\n"
                + "flipper: the whole Maven output is in target/flipper-build.log\n");
    assertThat(clone.resolve("target/flipper-build.log"))
        .content()
        .contains("[INFO] Scanning for projects...");
  }

  @Test
  void theDistributionRunsInTheCallersWorkingDirectory() throws Exception {
    assertThat(flipper(Map.of(), "--version").exit).isZero(); // builds the stub distribution
    executable(
        clone.resolve("dist/target/flipper-" + VersionProvider.version() + "/bin/flipper"),
        "#!/bin/sh\necho \"$(pwd): $*\"\n");
    Path caller = Files.createDirectories(bin.resolve("caller"));

    Result check = flipperIn(caller, Map.of(), "config-check", "-c", "relative.yaml");

    assertThat(check.exit).as(check.toString()).isZero();
    assertThat(check.out).isEqualTo(caller.toRealPath() + ": config-check -c relative.yaml\n");
  }

  @Test
  void helpNeedsNoBuild() throws Exception {
    Result help = flipper(Map.of());

    assertThat(help.exit).isZero();
    assertThat(help.out).startsWith("Developer entry point of the repository.\n  ./flipper demo ");
    assertThat(mvnCalls).doesNotExist();
  }

  private record Result(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\nstdout:\n" + out + "stderr:\n" + err;
    }
  }

  private Result flipper(Map<String, String> env, String... args) throws Exception {
    return flipperIn(clone, env, args);
  }

  private Result flipperIn(Path workingDirectory, Map<String, String> env, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", clone.resolve("flipper").toString()));
    command.addAll(List.of(args));
    Path out = bin.resolve("out");
    Path err = bin.resolve("err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    builder.environment().put("FAKE_MVN_CALLS", mvnCalls.toString());
    builder.environment().put("FAKE_VERSION", VersionProvider.version());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "./flipper " + String.join(" ", args) + " did not finish within 30 s");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void executable(Path file, String content) throws IOException {
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
