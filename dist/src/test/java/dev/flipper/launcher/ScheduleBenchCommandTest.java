package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper bench schedules}, briefly: the slot counts it prints (every slot fired exactly
 * once), not its times. The process run uses the MariaDB on 127.0.0.1:3306 (a database of its own,
 * dropped at the end).
 */
// A run that ignores --duration would take two minutes: fail instead of waiting for it.
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ScheduleBenchCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  @Tag("slow")
  void oneAndTwoSchedulersInThisJvmFireEverySlotOnceAndDeleteTheirH2File() throws IOException {
    assertThat(
            run(
                "bench",
                "schedules",
                "--url",
                "jdbc:h2:file:" + dir.resolve("s"),
                "--schedules",
                "5",
                "--schedulers",
                "1,2",
                "--duration",
                "3s"))
        .as(out + "\n" + err)
        .isZero();

    assertThat(out.toString())
        .contains(
            "1 scheduler : slots expected 15, fired 15 (duplicates 0, missing 0)",
            "2 schedulers: slots expected 15, fired 15 (duplicates 0, missing 0)")
        .doesNotContain("FAILED");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  @Tag("mariadb")
  @Tag("processes")
  void twoSchedulerProcessesFireEverySlotOnce() {
    assertThat(
            run(
                "bench",
                "schedules",
                "--url",
                "jdbc:mysql://127.0.0.1:3306/",
                "--schedules",
                "5",
                "--schedulers",
                "2",
                "--processes",
                "--duration",
                "3s"))
        .as(out + "\n" + err)
        .isZero();

    assertThat(out.toString())
        .contains(
            "2 schedulers (processes)",
            "2 schedulers: slots expected 15, fired 15 (duplicates 0, missing 0)");
  }

  @Test
  void aDurationUnderOneSecondIsAUsageError() {
    assertThat(run("bench", "schedules", "--duration", "500ms")).isEqualTo(2);
    assertThat(err.toString()).contains("--duration must be at least 1s");
  }
}
