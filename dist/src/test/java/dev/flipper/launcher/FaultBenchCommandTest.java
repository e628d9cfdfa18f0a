package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code flipper bench faults} end to end, small: its own Redis on a spare port, a queue server JVM
 * killed once, worker JVMs killed twice, the store restarted once; every job must still have run.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultBenchCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  @Tag("redis")
  @Tag("processes")
  void noJobIsLostThroughServerWorkerAndStoreFaults() {
    int exit =
        Launcher.execute(
            new String[] {
              "bench",
              "faults",
              "--store",
              "redis",
              "--jobs",
              "2000",
              "--server-kills",
              "1",
              "--worker-kills",
              "2",
              "--store-restarts",
              "1",
              "--workers",
              "2",
              "--batch",
              "20",
              "--timeout",
              "100s"
            },
            new PrintWriter(out),
            new PrintWriter(err));

    String report = out.toString();
    assertThat(exit).as(report + err).isZero();
    assertThat(report)
        .containsPattern("\\| redis +\\| +[0-9.]+ \\| +0 \\|")
        .contains("server-kill@")
        .contains("worker-kill@")
        .contains("store-restart@");
  }

  @Test
  void anUnknownStoreIsAnErrorBeforeAnythingStarts() {
    int exit =
        Launcher.execute(
            new String[] {"bench", "faults", "--store", "postgres"},
            new PrintWriter(out),
            new PrintWriter(err));

    assertThat(exit).isEqualTo(Launcher.EXIT_USAGE);
    assertThat(err.toString()).contains("'postgres' is not one of mariadb, redis, both");
  }
}
