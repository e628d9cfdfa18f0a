package dev.flipper.bench;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.worker.WorkerDaemon;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench workflows}: how fast workers move through workflows. A worker daemon with
 * {@code --workers} slots runs, in this JVM, on a token master over a database: a linear chain of
 * {@code true} jobs, then a fan-out (one root, N-2 parallel jobs, one join), each from start to
 * SUCCESS. Prints the total time, the hop latency (from a job's end to the start of the next one it
 * enabled: p50/p99) and master calls per job (claims, starts, renewals, finishes, idle re-checks:
 * every round trip a remote worker would make).
 *
 * <p>It WRITES DATA only to a database it creates (see {@link BenchDatabase}; by default a new H2
 * file in the temporary folder) and deletes at the end; the job logs and work directories go to a
 * new temporary folder, deleted at the end too. Not a test. Not thread-safe; one run per instance.
 */
@Command(
    name = "workflows",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs a chain and a fan-out of `true` jobs through a worker daemon and times them.",
      "Prints total time, hop latency p50/p99 and master calls per job.",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end; a "
          + "database or file that exists is refused. Job logs go to a temporary folder, deleted at the end."
    },
    footer = {
      "",
      "Examples:",
      "  flipper bench workflows",
      "  flipper bench workflows --thrift --url jdbc:mysql://127.0.0.1:3306/"
    })
public final class WorkflowBenchmark implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin NewDatabaseOptions db;

  @Option(
      names = "--workers",
      defaultValue = "4",
      description = "workers.count: job slots. Default: ${DEFAULT-VALUE}")
  int workers;

  @Option(
      names = "--chain",
      defaultValue = "100",
      description = "Jobs in the linear chain. Default: ${DEFAULT-VALUE}")
  int chain;

  @Option(
      names = "--fanout",
      defaultValue = "1000",
      description = "Jobs in the fan-out, root and join included. Default: ${DEFAULT-VALUE}")
  int fanout;

  @Option(
      names = "--thrift",
      description =
          "Workers talk to the master through a local Thrift server, as remote "
              + "workers do (default: in-process calls).")
  boolean thrift;

  @Override
  public Integer call() throws Exception {
    atLeast("--workers", workers, 1);
    atLeast("--chain", chain, 2);
    atLeast("--fanout", fanout, 3);
    PrintWriter out = spec.commandLine().getOut();
    try (BenchDatabase database = db.create(spec)) {
      Path temp = Files.createTempDirectory("flipper-bench-wf-");
      try {
        out.printf(
            Locale.ROOT,
            "workflow benchmark: %s, job logs in %s, workers.count %d, %s; load average %.2f%n",
            database.describe(),
            temp,
            workers,
            thrift ? "through Thrift" : "in-process",
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.flush();
        run(out, database.url(), temp);
      } finally {
        deleteTree(temp);
      }
    }
    out.flush();
    return 0;
  }

  private void atLeast(String option, int value, int minimum) {
    if (value < minimum) {
      throw new ParameterException(
          spec.commandLine(), option + " must be at least " + minimum + ", was " + value);
    }
  }

  private void run(PrintWriter out, String jdbcUrl, Path temp) throws Exception {
    try (JdbcTokenStore store =
        JdbcTokenStore.open(
            JdbcTokenStoreConfig.of(jdbcUrl, db.user, db.password)
                .withPoolSize(Math.max(10, workers * 2)))) {
      TokenService service = TokenService.builder(store).build();
      TokenMasterServer server =
          thrift
              ? TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start()
              : null;
      TokenMasterClient client =
          thrift
              ? TokenMasterClient.builder("127.0.0.1", server.port())
                  .maxIdleConnections(workers * 2)
                  .build()
              : null;
      CountingTokenMaster counted = new CountingTokenMaster(thrift ? client : service);
      WorkflowEngine engine = WorkflowEngine.builder(service).build();
      WorkerDaemon.Config config =
          new WorkerDaemon.Config(
              workers,
              Duration.ofSeconds(60),
              Duration.ofHours(12),
              Duration.ofSeconds(5),
              temp.resolve("logs").toString(),
              temp.resolve("work").toString(),
              "127.0.0.1",
              "127.0.0.1");
      WorkerDaemon daemon = new WorkerDaemon(config, counted, new MetricRegistry());
      try {
        daemon.start();
        out.println(scenario(engine, counted, chainDefinition()).format("chain of " + chain));
        out.flush();
        out.println(scenario(engine, counted, fanoutDefinition()).format("fan-out of " + fanout));
        out.println(
            "hop = a job's first start minus the end of its last parent (in the fan-out it includes the "
                + "wait for a free slot); run = start to end of one execution, the shell's spawn included");
        out.flush();
      } finally {
        daemon.close();
        if (client != null) {
          client.close();
          server.close();
        }
      }
    }
  }

  private WorkflowDefinition chainDefinition() {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("bench_chain");
    for (int i = 0; i < chain; i++) {
      JobDefinition.Builder job =
          JobDefinition.builder(String.format(Locale.ROOT, "j%04d", i)).command("true");
      builder.job(i == 0 ? job : job.needs(String.format(Locale.ROOT, "j%04d", i - 1)));
    }
    return builder.build();
  }

  private WorkflowDefinition fanoutDefinition() {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("bench_fanout");
    builder.job(JobDefinition.builder("root").command("true"));
    List<String> middle = new ArrayList<>();
    for (int i = 0; i < fanout - 2; i++) {
      String name = String.format(Locale.ROOT, "p%04d", i);
      middle.add(name);
      builder.job(JobDefinition.builder(name).command("true").needs("root"));
    }
    builder.job(JobDefinition.builder("join").command("true").needs(middle));
    return builder.build();
  }

  private record Result(
      int jobs, Duration total, double p50, double p99, double runP50, double callsPerJob) {
    String format(String name) {
      return String.format(
          Locale.ROOT,
          "%-16s %5d jobs  total %6d ms  hop p50 %7.1f ms  p99 %7.1f ms  "
              + "run p50 %5.1f ms  master calls/job %4.1f",
          name,
          jobs,
          total.toMillis(),
          p50,
          p99,
          runP50,
          callsPerJob);
    }
  }

  private static Result scenario(
      WorkflowEngine engine, CountingTokenMaster counted, WorkflowDefinition definition)
      throws InterruptedException {
    engine.definitions().apply(List.of(definition));
    long callsBefore = counted.calls();
    long start = System.nanoTime();
    String instance = engine.instances().start(definition.name(), "bench", Map.of());
    InstanceDetail detail;
    while (true) {
      // Only the instance record: a cheap read, not the whole status of 1,000 jobs.
      InstanceStatus status =
          engine.status().instances(definition.name()).stream()
              .filter(s -> s.instance().equals(instance))
              .findFirst()
              .map(s -> s.status())
              .orElse(InstanceStatus.RUNNING);
      if (status != InstanceStatus.RUNNING) {
        if (status != InstanceStatus.SUCCESS) {
          throw new IllegalStateException(
              definition.name() + " ended " + status + ", expected SUCCESS");
        }
        break;
      }
      Thread.sleep(5);
    }
    Duration total = Duration.ofNanos(System.nanoTime() - start);
    long calls = counted.calls() - callsBefore;
    detail = engine.status().instance(definition.name(), instance).orElseThrow();
    List<Long> hops = hops(detail);
    Collections.sort(hops);
    int jobs = detail.jobs().size();
    List<Long> runs =
        new ArrayList<>(
            detail.jobs().stream()
                .flatMap(j -> j.executions().stream())
                .map(e -> e.end().orElseThrow().toEpochMilli() - e.start().toEpochMilli())
                .sorted()
                .toList());
    return new Result(
        jobs,
        total,
        percentile(hops, 0.50),
        percentile(hops, 0.99),
        percentile(runs, 0.50),
        (double) calls / jobs);
  }

  /**
   * For each job with parents: its first start minus the end of the parent that ended last (ms).
   */
  private static List<Long> hops(InstanceDetail detail) {
    List<Long> hops = new ArrayList<>();
    for (JobDetail job : detail.jobs()) {
      // A root's input is the instance start, not a job: it has no hop.
      Optional<Instant> lastParentEnd =
          job.needs().stream()
              .map(detail::job)
              .flatMap(Optional::stream)
              .map(p -> p.lastExecution().flatMap(ExecutionDetail::end).orElseThrow())
              .max(Comparator.naturalOrder());
      if (lastParentEnd.isPresent() && !job.executions().isEmpty()) {
        hops.add(
            job.executions().get(0).start().toEpochMilli() - lastParentEnd.get().toEpochMilli());
      }
    }
    return hops;
  }

  private static double percentile(List<Long> sorted, double q) {
    if (sorted.isEmpty()) {
      return 0;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
