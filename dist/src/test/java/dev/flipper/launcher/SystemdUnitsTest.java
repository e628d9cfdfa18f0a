package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd unit files shipped in the distribution: one per daemon, graceful on SIGTERM, and
 * accepted by {@code systemd-analyze verify} (where systemd is installed; with ExecStart pointed at
 * this checkout's bin/flipper, since verify checks that the program exists).
 */
class SystemdUnitsTest {
  private static final Path UNITS = Path.of("src/main/dist/systemd");
  private static final Path LAUNCHER = Path.of("src/main/dist/bin/flipper").toAbsolutePath();

  @TempDir Path dir;

  @Test
  void oneUnitPerDaemonThatStopsGracefullyAfterTheCertificatesAreMade() throws IOException {
    List<String> modes = Arrays.stream(Mode.values()).map(Mode::modeName).toList();
    for (String mode : modes) {
      String unit = Files.readString(UNITS.resolve("flipper-" + mode + ".service"));
      assertThat(unit)
          .contains(
              "ExecStart=/opt/flipper/bin/flipper -c /etc/flipper/flipper.yaml -m " + mode + "\n",
              "KillSignal=SIGTERM",
              "User=flipper",
              "WantedBy=multi-user.target",
              "After=network-online.target flipper-tls-init.service");
    }
    assertThat(Files.readString(UNITS.resolve("flipper-tls-init.service")))
        .contains(
            "ConditionPathExists=!/etc/flipper/tls/ca.pem",
            "ExecStart=/opt/flipper/bin/flipper tls init --dir /etc/flipper/tls --host %H\n");
    try (Stream<Path> files = Files.list(UNITS)) {
      assertThat(files.count()).isEqualTo(modes.size() + 1); // and the certificates' unit
    }
  }

  @Test
  @Tag("tools")
  void systemdAnalyzeVerifyAcceptsEveryUnit() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/systemd-analyze")),
        "systemd-analyze is not installed");
    try (Stream<Path> files = Files.list(UNITS)) {
      for (Path unit : files.toList()) {
        Path copy = dir.resolve(unit.getFileName());
        Files.writeString(
            copy, Files.readString(unit).replace("/opt/flipper/bin/flipper", LAUNCHER.toString()));
        Process verify =
            new ProcessBuilder("systemd-analyze", "verify", copy.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(verify.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(verify.exitValue()).as("systemd-analyze verify %s:\n%s", unit, output).isZero();
        assertThat(output).as("warnings for %s", unit).isBlank();
      }
    }
  }
}
