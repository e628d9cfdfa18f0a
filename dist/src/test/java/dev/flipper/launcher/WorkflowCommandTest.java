package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flipper workflow validate}, in-process. */
class WorkflowCommandTest {
  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Launcher.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void theShippedExamplesAreValid() {
    Path examples = Path.of("..", "examples", "workflows");

    assertThat(run("workflow", "validate", examples.toString())).as(err.toString()).isZero();

    assertThat(out.toString())
        .isEqualTo(
            """
        ok: workflow 'diamond' (4 jobs)
        ok: workflow 'etl' (3 jobs)
        ok: workflow 'sensor' (3 jobs)
        3 files valid
        """);
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void anInvalidDirectoryPrintsEveryProblemAndExits1() throws Exception {
    Files.writeString(
        dir.resolve("good.yaml"), "workflow: good\njobs:\n  a:\n    command: \"true\"\n");
    Files.writeString(
        dir.resolve("loop.yaml"),
        "workflow: loop\njobs:\n  a:\n    needs: [b]\n    command: \"true\"\n  b:\n    needs: [a]\n    comand: x\n");

    assertThat(run("workflow", "validate", dir.toString())).isEqualTo(1);

    Path loop = dir.resolve("loop.yaml");
    assertThat(err.toString())
        .isEqualTo(
            loop
                + ":4: cycle: a -> b -> a\n"
                + loop
                + ":6: 'jobs.b.command' is required (the shell command to run)\n"
                + loop
                + ":8: unknown key 'jobs.b.comand' (did you mean 'jobs.b.command'?)\n"
                + "3 problems in 2 files\n");
    assertThat(out.toString()).isEqualTo("ok: workflow 'good' (1 job)\n");
  }

  @Test
  void aCronExpressionTheSchedulerCannotReadIsAProblem() throws Exception {
    Files.writeString(
        dir.resolve("odd.yaml"),
        "workflow: odd\nschedule:\n  cron: \"0 0 L/2 * *\"\njobs:\n  a:\n    command: \"true\"\n");

    assertThat(run("workflow", "validate", dir.toString())).isEqualTo(1);

    assertThat(err.toString())
        .startsWith("workflow 'odd': schedule.cron '0 0 L/2 * *' is not valid: ")
        .endsWith("1 problem in 1 file\n");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void usageErrorsExit2() {
    assertThat(run("workflow", "validate")).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter", "FILE|DIR");

    assertThat(run("workflow")).isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "flipper: missing subcommand (validate, apply, start, status, unschedule, backfill, logs, ");

    assertThat(run("workflow", "validate", "--nope", "x.yaml")).isEqualTo(2);
  }

  @Test
  void aMissingFileIsAProblemNotAUsageError() {
    assertThat(run("workflow", "validate", dir.resolve("nope.yaml").toString())).isEqualTo(1);
    assertThat(err.toString())
        .startsWith(dir.resolve("nope.yaml") + ": no such file or directory\n");
  }

  @Test
  void helpDescribesTheCommand() {
    assertThat(run("workflow", "validate", "--help")).isZero();
    assertThat(out.toString())
        .contains("Usage: flipper workflow validate", "FILE|DIR", "Exit code 0");
  }

  @Test
  void anUnreachableMasterSaysWhichConfigNamedIt() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // free again once closed: nothing listens there
    }

    int exit = run("workflow", "status", "--set", "master.port=" + closed);

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString())
        .contains("flipper: cannot reach the token master at localhost:" + closed)
        .contains("flipper: the master's port came from ") // here: the built-in defaults
        .contains("; give -c FILE, set FLIPPER_CONFIG, or use --host and --set master.port=PORT");
  }
}
