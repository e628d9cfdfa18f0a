package dev.flipper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The committed Thrift code of both interfaces must be what scripts/gen-thrift.sh makes from the
 * IDL files today. Needs the thrift compiler; without it the test fails (it does not skip): run
 * scripts/ensure-services.sh.
 */
@Tag("tools")
class GeneratedThriftIsFreshTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @TempDir static Path scratch;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "thrift-wire, dev/flipper/queue/thrift",
    "thrift-wire, dev/flipper/workflow/master/thrift"
  })
  void committedCodeEqualsAFreshGeneration(String module, String packagePath) throws Exception {
    Path freshRoot = scratch.resolve(module);
    Process process =
        new ProcessBuilder(
                "bash", ROOT.resolve("scripts/gen-thrift.sh").toString(), freshRoot.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("scripts/gen-thrift.sh did not finish within 60 s:\n" + output);
    }
    if (process.exitValue() == 3) {
      fail(
          "the thrift compiler 0.17 is needed to check the generated code; run scripts/ensure-services.sh "
              + "(it installs thrift-compiler). gen-thrift said:\n"
              + output);
    }
    assertThat(process.exitValue()).as("scripts/gen-thrift.sh output:\n%s", output).isZero();

    Map<String, String> fresh = read(freshRoot.resolve(packagePath));
    Map<String, String> committed =
        read(ROOT.resolve(module).resolve("src/main/java").resolve(packagePath));
    assertThat(committed.keySet())
        .as("generated files; run scripts/gen-thrift.sh")
        .isEqualTo(fresh.keySet());
    for (Map.Entry<String, String> file : fresh.entrySet()) {
      assertThat(committed.get(file.getKey()))
          .as(
              "%s differs from a fresh generation; run scripts/gen-thrift.sh and commit the result",
              file.getKey())
          .isEqualTo(file.getValue());
    }
  }

  private static Map<String, String> read(Path dir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> paths = Files.list(dir)) {
      for (Path path : paths.toList()) {
        files.put(path.getFileName().toString(), Files.readString(path));
      }
    }
    return files;
  }
}
