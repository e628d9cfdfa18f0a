package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  /** Issue #25: an alias bomb under the 50-alias limit drove validate and apply out of memory. */
  @Test
  void anAliasBombIsRefusedAtOnce() throws Exception {
    // 9 levels of 5 aliases each (45 aliases): 5^9 = 1953125 scalars once expanded.
    StringBuilder yaml = new StringBuilder("workflow: bomb\nx0: &a0 [x, x, x, x, x]\n");
    for (int i = 1; i <= 9; i++) {
      String prev = "*a" + (i - 1);
      yaml.append(
          "x"
              + i
              + ": &a"
              + i
              + " ["
              + String.join(", ", java.util.Collections.nCopies(5, prev))
              + "]\n");
    }
    yaml.append("jobs:\n  a:\n    command: \"true\"\n");
    Path bomb = dir.resolve("bomb.yaml");
    Files.writeString(bomb, yaml);
    assertThat(Files.size(bomb)).isLessThan(600);

    long start = System.nanoTime();
    assertThat(run("workflow", "validate", bomb.toString())).isEqualTo(1);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(err.toString())
        .isEqualTo(
            bomb
                + ": YAML too large: more than 200000 nodes with aliases expanded (the limit; an"
                + " alias bomb?)\n1 problem in 1 file\n");
  }

  /** Issue #25: a recursive alias crashed validate with a stack trace. */
  @Test
  void aRecursiveAliasIsOneLineNotAStackTrace() throws Exception {
    Path rec = dir.resolve("rec.yaml");
    Files.writeString(rec, "workflow: rec\njobs: &j\n  a:\n    command: \"true\"\n  b: *j\n");

    assertThat(run("workflow", "validate", rec.toString())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(
            rec
                + ":2: recursive alias at 'jobs.b': a collection contains itself; not allowed\n"
                + "1 problem in 1 file\n");
  }

  /** Issue #25: a 20 MB workflow file took 120 s to be refused. */
  @Test
  void aFileOver1MiBIsRefusedUnread() throws Exception {
    Path big = dir.resolve("big.yaml");
    Files.writeString(
        big,
        "workflow: big\njobs:\n  a:\n    command: \"true\"\n"
            + "# padding\n".repeat(120_000)); // 1.2 MB of comments: valid YAML

    assertThat(run("workflow", "validate", big.toString())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(
            big
                + ": the workflow file is "
                + Files.size(big)
                + " bytes, over the limit of 1048576 bytes (1 MiB); not read\n"
                + "1 problem in 1 file\n");
  }

  /** Issue #25: a command over 128 KiB validated but could never start. */
  @Test
  void aCommandOver128KiBIsAProblemWithItsLine() throws Exception {
    Path longer = dir.resolve("long.yaml");
    Files.writeString(
        longer,
        "workflow: long\njobs:\n  a:\n    command: \"true\"\n  b:\n    command: echo "
            + "x".repeat(128 * 1024)
            + "\n");

    assertThat(run("workflow", "validate", longer.toString())).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(
            longer
                + ":6: 'jobs.b.command' is 131077 bytes, over the limit of 131072 bytes (128 KiB,"
                + " the longest command the worker can run)\n1 problem in 1 file\n");
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
