package dev.flipper.bench;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.ui.UiAuth;
import dev.flipper.workflow.ui.UiDaemon;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench ui}: how fast the web UI answers with a full store. Fills a token master
 * over a database with {@code --instances} instances of {@code --workflows} workflows, {@code
 * --jobs} job tokens in all (a fan-out per instance), runs {@code --executions} jobs to the end so
 * pages have histories, then asks every page and its JSON {@code --requests} times through a UI in
 * this JVM that reads the master over Thrift, as the UI daemon does; the queue dashboard's pages
 * read an in-memory queue server of {@code --queues} queues of {@code --queue-jobs} jobs ({@link
 * BenchQueues}). Prints p50, p99 and max per page.
 *
 * <p>It WRITES DATA only to a database it creates (see {@link BenchDatabase}) and drops at the end.
 * Not a test.
 */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Times every page of the web UI (and its JSON) over a master filled with instances.",
      "Fills a master with instances and job tokens, then times each page through a UI in this JVM "
          + "reading the master over Thrift; prints p50/p99/max per page and the CPU time this JVM spent per "
          + "request (UI, master and an H2 store; not a MariaDB server).",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end."
    },
    footer = {
      "",
      "Examples:",
      "  flipper bench ui",
      "  flipper bench ui --url jdbc:mysql://127.0.0.1:3306/"
    })
public final class UiBenchmark implements Callable<Integer> {
  private static final int WARM_UP = 10;

  @Spec CommandSpec spec;

  @Mixin NewDatabaseOptions db;

  @Option(
      names = "--instances",
      defaultValue = "1000",
      description = "Instances in all. Default: ${DEFAULT-VALUE}")
  int instances;

  @Option(
      names = "--jobs",
      defaultValue = "50000",
      description =
          "Job tokens in all (jobs per instance = jobs / instances). Default: ${DEFAULT-VALUE}")
  int jobs;

  @Option(
      names = "--workflows",
      defaultValue = "20",
      description = "Workflows. Default: ${DEFAULT-VALUE}")
  int workflows;

  @Option(
      names = "--executions",
      defaultValue = "2000",
      description = "Jobs run to the end before timing, for histories. Default: ${DEFAULT-VALUE}")
  int executions;

  @Option(
      names = "--queues",
      defaultValue = "5",
      description = "Queues of the queue dashboard (in memory). Default: ${DEFAULT-VALUE}")
  int queues;

  @Option(
      names = "--queue-jobs",
      defaultValue = "10000",
      description = "Jobs per queue, a tenth of them failed. Default: ${DEFAULT-VALUE}")
  int queueJobs;

  @Option(
      names = "--requests",
      defaultValue = "20",
      description = "Requests per page. Default: ${DEFAULT-VALUE}")
  int requests;

  @Override
  public Integer call() throws Exception {
    atLeast("--workflows", workflows, 1);
    atLeast("--queues", queues, 1);
    atLeast("--queue-jobs", queueJobs, 0);
    atLeast("--instances", instances, workflows);
    atLeast("--jobs", jobs, instances * 3);
    atLeast("--requests", requests, 1);
    PrintWriter out = spec.commandLine().getOut();
    try (BenchDatabase database = db.create(spec);
        JdbcTokenStore store =
            JdbcTokenStore.open(JdbcTokenStoreConfig.of(database.url(), db.user, db.password))) {
      out.printf(
          Locale.ROOT,
          "ui benchmark: %s, %d workflows, %d instances, %d job tokens; load average %.2f%n",
          database.describe(),
          workflows,
          instances,
          (jobs / instances) * instances,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      out.flush();
      TokenService service = TokenService.builder(store).build();
      WorkflowEngine engine = WorkflowEngine.builder(service).build();
      long filling = System.nanoTime();
      fill(engine);
      out.printf(Locale.ROOT, "filled in %d ms%n", (System.nanoTime() - filling) / 1_000_000);
      out.flush();
      try (TokenMasterServer server =
              TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
          BenchQueues queueServer = new BenchQueues(queues, queueJobs);
          // The client as the launcher makes the UI's: one quick connection attempt per call.
          TokenMasterClient master =
              TokenMasterClient.builder("127.0.0.1", server.port())
                  .connectAttempts(1)
                  .connectTimeout(Duration.ofSeconds(2))
                  .maxBackoff(Duration.ofSeconds(1))
                  .build()) {
        UiDaemon ui =
            new UiDaemon(
                new UiDaemon.Config("127.0.0.1", 0, "127.0.0.1"),
                UiAuth.NONE,
                master,
                "127.0.0.1:" + server.port(),
                QueueServers.of(queueServer.address()),
                RateLimits.NONE,
                new MetricRegistry());
        try {
          ui.start();
          measure(out, "http://127.0.0.1:" + ui.port(), engine, queueServer);
        } finally {
          ui.close();
        }
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

  /** Applies the workflows, starts the instances round-robin, and runs some jobs to the end. */
  private void fill(WorkflowEngine engine) {
    int perInstance = jobs / instances;
    List<WorkflowDefinition> definitions = new ArrayList<>();
    for (int w = 0; w < workflows; w++) {
      WorkflowDefinition.Builder b =
          WorkflowDefinition.builder("wf-" + w)
              .owners(List.of("bench"))
              .schedule(Schedule.every(Duration.ofHours(1)));
      b.job(JobDefinition.builder("root").command("true"));
      for (int j = 1; j < perInstance - 1; j++) {
        b.job(JobDefinition.builder("job-" + j).needs("root").command("true"));
      }
      List<String> middle = new ArrayList<>();
      for (int j = 1; j < perInstance - 1; j++) {
        middle.add("job-" + j);
      }
      b.job(JobDefinition.builder("join").needs(middle).command("true"));
      definitions.add(b.build());
    }
    engine.definitions().apply(definitions);
    ScheduleTokens.apply(engine.master(), definitions, Instant.now());
    Heartbeats heartbeats =
        new Heartbeats(engine.master()); // a worker per workflow, for the workers page
    for (int w = 0; w < workflows; w++) {
      Instant now = Instant.now();
      heartbeats.beat(
          new Heartbeat(
              "bench-host-" + w + "-1-x",
              "bench-host-" + w,
              Optional.of("http://bench-host-" + w + ":9093"),
              1,
              4,
              List.of(),
              false,
              now,
              now,
              Duration.ofMinutes(1)));
    }
    for (int i = 0; i < instances; i++) {
      engine.instances().start("wf-" + (i % workflows));
    }
    for (int n = 0; n < executions; n++) {
      Optional<ClaimedJob> claimed = engine.claim("bench-worker", Duration.ofMinutes(10));
      if (claimed.isEmpty()) {
        break;
      }
      engine.start(
          claimed.get(),
          new ExecutionStart(
              "true", "bench-host", Map.of("stdout", "http://127.0.0.1:9/logs/none")));
      engine.finish(claimed.get(), ExecutionResult.exit(n % 10 == 0 ? 1 : 0));
    }
  }

  private void measure(PrintWriter out, String base, WorkflowEngine engine, BenchQueues queueServer)
      throws Exception {
    String instance = engine.status().instances("wf-0").get(0).instance();
    Map<String, String> pages = new LinkedHashMap<>();
    pages.put("workflows", "/");
    pages.put("workflow", "/workflows/wf-0");
    pages.put("instance", "/workflows/wf-0/instances/" + instance);
    pages.put("job", "/workflows/wf-0/instances/" + instance + "/jobs/root");
    pages.put("schedules", "/schedules");
    pages.put("workers", "/workers");
    pages.put("tokens /", "/tokens?path=/");
    pages.put("tokens instance", "/tokens?path=/workflow/wf-0/" + instance + "/job/waiting/");
    pages.put("token", "/token?name=/workflow/wf-0/" + instance + "/instance");
    pages.put("queues", "/queues");
    pages.put("queue", "/queues/queue_0");
    if (queueServer.failedJob() != null) {
      pages.put("queue job", "/queue-job?descriptor=" + queueServer.failedJob());
    }
    HttpClient http = HttpClient.newHttpClient();
    // CPU time of this JVM (UI, master, and an H2 store) per request: what a page costs, whatever
    // the machine's load.
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    out.println(
        String.format(
            Locale.ROOT,
            "%-16s %-5s %9s %9s %9s %9s %9s",
            "page",
            "kind",
            "p50 ms",
            "p99 ms",
            "max ms",
            "cpu ms",
            "bytes"));
    for (Map.Entry<String, String> page : pages.entrySet()) {
      for (String kind : List.of("html", "json")) {
        String path =
            kind.equals("json")
                ? "/api" + (page.getValue().equals("/") ? "/workflows" : page.getValue())
                : page.getValue();
        List<Long> micros = new ArrayList<>();
        int bytes = 0;
        for (int w = 0; w < WARM_UP; w++) {
          get(http, base + path); // templates and queries compiled by the JIT first
        }
        long cpuBefore = os.getProcessCpuTime();
        for (int r = 0; r < requests; r++) {
          long start = System.nanoTime();
          bytes = get(http, base + path).length();
          micros.add((System.nanoTime() - start) / 1000);
        }
        double cpuMillis = (os.getProcessCpuTime() - cpuBefore) / 1e6 / requests;
        micros.sort(null);
        out.println(
            String.format(
                Locale.ROOT,
                "%-16s %-5s %9s %9s %9s %9s %9d",
                page.getKey(),
                kind,
                Cells.of("%.1f", percentile(micros, 0.50) / 1000.0),
                Cells.of("%.1f", percentile(micros, 0.99) / 1000.0),
                Cells.of("%.1f", micros.get(micros.size() - 1) / 1000.0),
                Cells.of("%.1f", cpuMillis),
                bytes));
        out.flush();
      }
    }
  }

  private static String get(HttpClient http, String url) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          url + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private static double percentile(List<Long> sorted, double q) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }
}
