package dev.flipper.bench;

import dev.flipper.queue.QueueService;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench cli}: how long the command-line tools take, as an operator runs them. Starts
 * a token master and a queue server in this process (in-memory stores, ephemeral ports), applies a
 * small workflow and enqueues a job, then runs {@code flipper workflow status}, {@code flipper
 * workflow start -w ...} and {@code flipper queue-tool --mode lookup ...} N times each as child
 * processes of the distribution's {@code bin/flipper} (found from the system property {@code
 * flipper.home}, which the script sets), one at a time. Prints per command the median and max wall
 * time and CPU seconds of the child (user + system, from the shell's {@code times}), and a verdict
 * against the goal of issue 26: at most 0.3 s wall and 0.4 CPU-s.
 */
@Command(
    name = "cli",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Times workflow status, workflow start and queue-tool lookup run by bin/flipper.",
      "Writes no data: the master and queue server run in this process on in-memory stores."
    })
public final class CliBenchmark implements Callable<Integer> {
  static final double GOAL_WALL_SECONDS = 0.3;
  static final double GOAL_CPU_SECONDS = 0.4;
  private static final Pattern TIMES = Pattern.compile("(\\d+)m([\\d.]+)s\\s+(\\d+)m([\\d.]+)s");

  @Spec CommandSpec spec;

  @Option(
      names = "--runs",
      defaultValue = "10",
      paramLabel = "N",
      description = "Runs of each command. Default: ${DEFAULT-VALUE}")
  int runs;

  @Option(
      names = "--flipper",
      paramLabel = "FILE",
      description = "The bin/flipper to time. Default: the one of this distribution")
  Path flipper;

  @Override
  public Integer call() throws Exception {
    if (runs < 1) {
      throw new ParameterException(spec.commandLine(), "--runs must be >= 1, was " + runs);
    }
    Path script = flipper != null ? flipper : home();
    if (script == null || !Files.isExecutable(script)) {
      throw new ParameterException(
          spec.commandLine(),
          "bench cli runs the distribution's bin/flipper: run it as bin/flipper bench cli from a"
              + " distribution folder, or name the script with --flipper FILE");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path dir = Files.createTempDirectory("flipper-bench-cli");
    Path workflow = dir.resolve("bench_cli.yaml");
    Files.writeString(
        workflow,
        "workflow: bench_cli\njobs:\n  a:\n    command: echo a\n",
        StandardCharsets.UTF_8);
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    QueueService service = QueueService.builder(store).serverId("bench-cli").build();
    service.createQueue("bench_cli");
    QueueServer queue = QueueServer.builder(service).bindHost("127.0.0.1").port(0).build().start();
    TokenMasterServer master =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    try {
      String masterPort = "master.port=" + master.port();
      String queuePort = Integer.toString(queue.port());
      String s = script.toString();
      Figures applied = time(s, "workflow", "apply", "--set", masterPort, workflow.toString());
      Figures enqueued =
          time(
              s,
              "queue-tool",
              "--port",
              queuePort,
              "--mode",
              "enqueue",
              "--queue",
              "bench_cli",
              "--body",
              "x");
      if (applied.exitCode != 0 || enqueued.exitCode != 0) {
        out.println("bench cli: setting up failed (workflow apply or queue-tool enqueue)");
        return 1;
      }
      out.printf(
          Locale.ROOT,
          "cli benchmark: %s, %d runs per command, one at a time; goal <= %.1f s wall, <= %.1f CPU-s%n",
          s,
          runs,
          GOAL_WALL_SECONDS,
          GOAL_CPU_SECONDS);
      out.flush();
      boolean ok = true;
      ok &= report(out, "workflow status", s, "workflow", "status", "--set", masterPort);
      ok &=
          report(
              out,
              "workflow start",
              s,
              "workflow",
              "start",
              "--set",
              masterPort,
              "-w",
              "bench_cli");
      ok &=
          report(
              out,
              "queue-tool lookup",
              s,
              "queue-tool",
              "--port",
              queuePort,
              "--mode",
              "lookup",
              "--job_descriptor",
              "bench_cli:s1:p1:1");
      return ok ? 0 : 1;
    } finally {
      master.close();
      queue.close();
      store.close();
      Files.deleteIfExists(workflow);
      Files.deleteIfExists(dir);
    }
  }

  private static Path home() {
    String home = System.getProperty("flipper.home");
    return home == null ? null : Path.of(home, "bin", "flipper");
  }

  /** Runs the command {@code runs} times and prints one line; false if a run failed. */
  private boolean report(PrintWriter out, String label, String... command)
      throws IOException, InterruptedException {
    List<Figures> figures = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      figures.add(time(command));
    }
    out.println(line(label, figures));
    out.flush();
    return figures.stream().allMatch(f -> f.exitCode == 0);
  }

  static String line(String label, List<Figures> figures) {
    double[] wall = figures.stream().mapToDouble(f -> f.wallSeconds).sorted().toArray();
    double[] cpu = figures.stream().mapToDouble(f -> f.cpuSeconds).sorted().toArray();
    long failed = figures.stream().filter(f -> f.exitCode != 0).count();
    double medianWall = median(wall);
    double medianCpu = median(cpu);
    boolean met = medianWall <= GOAL_WALL_SECONDS && medianCpu <= GOAL_CPU_SECONDS && failed == 0;
    return String.format(
        Locale.ROOT,
        "%-18s wall median %.2f s, max %.2f s; CPU median %.2f s, max %.2f s; %d failed: %s",
        label + ":",
        medianWall,
        wall[wall.length - 1],
        medianCpu,
        cpu[cpu.length - 1],
        failed,
        met ? "goal met" : "goal MISSED");
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * One run as a child of a shell whose {@code times} then prints the CPU its children used, so the
   * JVM's CPU is counted whatever its threads did.
   */
  private static Figures time(String... command) throws IOException, InterruptedException {
    List<String> shell =
        new ArrayList<>(
            List.of("/bin/sh", "-c", "\"$@\" >/dev/null 2>&1; s=$?; times; exit $s", "sh"));
    shell.addAll(Arrays.asList(command));
    long started = System.nanoTime();
    Process process = new ProcessBuilder(shell).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exitCode = process.waitFor();
    double wall = (System.nanoTime() - started) / 1e9;
    return new Figures(wall, childCpu(output), exitCode);
  }

  /** The children's user + system seconds: the second line of {@code times}. */
  static double childCpu(String times) {
    Matcher m = TIMES.matcher(times);
    double cpu = Double.NaN;
    int line = 0;
    while (m.find()) {
      if (++line == 2) {
        cpu =
            Integer.parseInt(m.group(1)) * 60
                + Double.parseDouble(m.group(2))
                + Integer.parseInt(m.group(3)) * 60
                + Double.parseDouble(m.group(4));
      }
    }
    return cpu;
  }

  /** One run's figures. */
  record Figures(double wallSeconds, double cpuSeconds, int exitCode) {}
}
