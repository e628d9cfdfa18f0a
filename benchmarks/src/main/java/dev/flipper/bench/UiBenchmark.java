package dev.flipper.bench;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.history.RunSort;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.control.ControlScope;
import dev.flipper.workflow.control.WorkflowControl;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.InstanceSummary;
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
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
      names = "--archived",
      defaultValue = "100000",
      description =
          "Archived runs recorded in the run history, "
              + ArchivedRuns.EXECUTIONS_PER_RUN
              + " job executions each, nine in ten of the first workflow. Default: ${DEFAULT-VALUE}")
  int archived;

  @Option(
      names = "--seed-threads",
      defaultValue = "8",
      description = "Threads recording the archived runs. Default: ${DEFAULT-VALUE}")
  int seedThreads;

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
    atLeast("--archived", archived, 0);
    atLeast("--seed-threads", seedThreads, 1);
    PrintWriter out = spec.commandLine().getOut();
    boolean answered;
    try (BenchDatabase database = db.create(spec);
        JdbcTokenStore store =
            JdbcTokenStore.open(JdbcTokenStoreConfig.of(database.url(), db.user, db.password))) {
      out.printf(
          Locale.ROOT,
          "ui benchmark: %s, %d workflows, %d instances, %d job tokens, %d archived runs;"
              + " load average %.2f%n",
          database.describe(),
          workflows,
          instances,
          (jobs / instances) * instances,
          archived,
          loadAverage());
      out.flush();
      TokenService service = TokenService.builder(store).build();
      // No archive delay: the instances that end are archived by archiveOne's archiveDue().
      WorkflowEngine engine = WorkflowEngine.builder(service).archiveDelay(Duration.ZERO).build();
      long filling = System.nanoTime();
      fill(engine);
      out.printf(Locale.ROOT, "filled in %d ms%n", (System.nanoTime() - filling) / 1_000_000);
      out.flush();
      ArchivedRuns runs = new ArchivedRuns(workflowNames(), archived, Instant.now());
      long seeding = System.nanoTime();
      HistorySeeder.seed(service, runs, seedThreads);
      long seedMillis = Math.max(1, (System.nanoTime() - seeding) / 1_000_000);
      out.printf(
          Locale.ROOT,
          "recorded %d archived runs (%d of wf-0), %d job executions, in %d ms (%.0f runs/s, %d"
              + " threads)%n",
          archived,
          runs.runsOfFirstWorkflow(),
          (long) archived * ArchivedRuns.EXECUTIONS_PER_RUN,
          seedMillis,
          archived * 1000.0 / seedMillis,
          seedThreads);
      long recorded = service.queryRuns(RunQuery.latest("wf-0", 1)).total();
      if (recorded != runs.runsOfFirstWorkflow()) {
        throw new IllegalStateException(
            "the run history holds "
                + recorded
                + " runs of wf-0 after seeding; expected "
                + runs.runsOfFirstWorkflow());
      }
      String archivedInstance = archiveOne(engine);
      out.printf(Locale.ROOT, "load average %.2f%n", loadAverage());
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
          answered =
              measure(
                  out,
                  "http://127.0.0.1:" + ui.port(),
                  pages(engine, queueServer, archivedInstance, runs.runsOfFirstWorkflow()));
          measureHistory(out, master, runs.runsOfFirstWorkflow());
        } finally {
          ui.close();
        }
      }
    }
    out.flush();
    if (!answered) {
      spec.commandLine()
          .getErr()
          .println("ui benchmark: some pages did not answer 200 (see above)");
      return 1;
    }
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
          WorkflowDefinition.builder(workflowNames().get(w))
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
      engine.instances().start(workflowNames().get(i % workflows));
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

  private List<String> workflowNames() {
    List<String> names = new ArrayList<>();
    for (int w = 0; w < workflows; w++) {
      names.add("wf-" + w);
    }
    return names;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /**
   * Archives the instances that ended while filling (the engine has no archive delay) as a worker
   * would, tokens and run history in one call, and returns one of wf-0's, so that an archived
   * instance's page reads what the archiver wrote. If none of wf-0's ended, one is started and
   * aborted first.
   */
  private static String archiveOne(WorkflowEngine engine) throws InterruptedException {
    String instance =
        engine.status().instances("wf-0").stream()
            .filter(summary -> summary.status().isFinished())
            .map(InstanceSummary::instance)
            .findFirst()
            .orElseGet(
                () -> {
                  String started = engine.instances().start("wf-0", "cli", Map.of());
                  WorkflowControl.builder(engine)
                      .build()
                      .abort(ControlScope.instance("wf-0", started));
                  return started;
                });
    // An instance is due at its end rounded up to a whole second of the master's clock: archive
    // until it has gone, for at most a few seconds.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    engine.archiveDue();
    while (engine.status().instance("wf-0", instance).isPresent()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "ended instance wf-0/" + instance + " was not archived within 10 s");
      }
      Thread.sleep(200);
      engine.archiveDue();
    }
    return instance;
  }

  /** A page and its JSON twin, as the UI serves them. */
  private record Page(String name, String html, String json) {}

  private static List<Page> pages(
      WorkflowEngine engine, BenchQueues queueServer, String archivedInstance, int wf0Runs) {
    // An active instance of wf-0; with few jobs run, all may have ended and gone to the archive.
    String instance =
        engine.status().instances("wf-0").stream()
            .map(InstanceSummary::instance)
            .findFirst()
            .orElseGet(() -> engine.instances().start("wf-0"));
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    String failedLastWeek =
        "?status=FAILURE&from=" + today.minusDays(14) + "&to=" + today.minusDays(7);
    // The deepest page of 50 the first workflow fills, at most page 1,800 (runs 89,951-90,000).
    String deep = "?page=" + Math.max(1, Math.min(1800, wf0Runs / 50)) + "&size=50";
    List<Page> pages = new ArrayList<>();
    pages.add(new Page("workflows", "/", "/api/workflows"));
    pages.add(same("workflow", "/workflows/wf-0"));
    pages.add(new Page("runs page 1", "/workflows/wf-0?page=1", "/api/workflows/wf-0/runs"));
    pages.add(
        new Page(
            "runs FAILURE 7d",
            "/workflows/wf-0" + failedLastWeek,
            "/api/workflows/wf-0/runs" + failedLastWeek));
    pages.add(new Page("runs search", "/workflows/wf-0?q=eu-7", "/api/workflows/wf-0/runs?q=eu-7"));
    pages.add(
        new Page(
            "runs longest",
            "/workflows/wf-0?sort=longest",
            "/api/workflows/wf-0/runs?sort=longest"));
    pages.add(
        new Page("runs deep page", "/workflows/wf-0" + deep, "/api/workflows/wf-0/runs" + deep));
    pages.add(
        new Page("grid 25", "/workflows/wf-0/grid?runs=25", "/api/workflows/wf-0/grid?runs=25"));
    pages.add(
        new Page("job history", "/workflows/wf-0/jobs/job-3", "/api/workflows/wf-0/jobs/job-3"));
    pages.add(same("archived inst", "/workflows/wf-0/instances/" + archivedInstance));
    pages.add(same("instance", "/workflows/wf-0/instances/" + instance));
    pages.add(same("job", "/workflows/wf-0/instances/" + instance + "/jobs/root"));
    pages.add(same("schedules", "/schedules"));
    pages.add(same("workers", "/workers"));
    pages.add(same("tokens /", "/tokens?path=/"));
    pages.add(same("tokens instance", "/tokens?path=/workflow/wf-0/" + instance + "/job/waiting/"));
    pages.add(same("token", "/token?name=/workflow/wf-0/" + instance + "/instance"));
    pages.add(same("queues", "/queues"));
    pages.add(same("queue", "/queues/queue_0"));
    if (queueServer.failedJob() != null) {
      pages.add(same("queue job", "/queue-job?descriptor=" + queueServer.failedJob()));
    }
    return pages;
  }

  /** A page whose JSON is at the same path under /api. */
  private static Page same(String name, String path) {
    return new Page(name, path, "/api" + path);
  }

  /**
   * Times every page and its JSON; returns false if one of them did not answer 200 (its row says
   * what it answered, and the others are still timed).
   */
  private boolean measure(PrintWriter out, String base, List<Page> pages) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    header(out, "page", "bytes");
    boolean allAnswered = true;
    for (Page page : pages) {
      for (String kind : List.of("html", "json")) {
        String path = kind.equals("json") ? page.json() : page.html();
        HttpResponse<String> first = get(http, base + path);
        if (first.statusCode() != 200) {
          out.printf(
              Locale.ROOT,
              "%-16s %-5s %s answered %d%n",
              page.name(),
              kind,
              path,
              first.statusCode());
          out.flush();
          allAnswered = false;
          continue;
        }
        time(out, page.name(), kind, () -> ok(get(http, base + path), path).length());
      }
    }
    return allAnswered;
  }

  /**
   * Times the run history calls the history pages make, straight to the master over Thrift: what
   * the store answers, without the active instances a page merges in or its rendering.
   */
  private void measureHistory(PrintWriter out, TokenMaster master, int wf0Runs) throws Exception {
    long today =
        LocalDate.now(ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    long day = Duration.ofDays(1).toMillis();
    int deepOffset = Math.max(0, Math.min(1799, wf0Runs / 50 - 1)) * 50;
    Map<String, RunQuery> runQueries = new LinkedHashMap<>();
    runQueries.put("runs page 1", RunQuery.latest("wf-0", 50));
    runQueries.put(
        "runs FAILURE 7d",
        new RunQuery(
            "wf-0", Set.of("FAILURE"), null, today - 14 * day, today - 6 * day, null, null, 0, 50));
    runQueries.put(
        "runs search", new RunQuery("wf-0", null, null, null, null, "eu-7", null, 0, 50));
    runQueries.put(
        "runs longest", new RunQuery("wf-0", null, null, null, null, null, RunSort.LONGEST, 0, 50));
    runQueries.put(
        "runs deep page", new RunQuery("wf-0", null, null, null, null, null, null, deepOffset, 50));
    runQueries.put("latest run", RunQuery.latest("wf-0", 1));
    header(out, "master call", "rows");
    for (Map.Entry<String, RunQuery> query : runQueries.entrySet()) {
      time(out, query.getKey(), "runs", () -> master.queryRuns(query.getValue()).runs().size());
    }
    List<String> latest =
        master.queryRuns(RunQuery.latest("wf-0", 25)).runs().stream()
            .map(RunRecord::instance)
            .toList();
    time(
        out,
        "grid 25",
        "execs",
        () ->
            master
                .queryExecutions(ExecutionQuery.ofInstances("wf-0", latest, RunQuery.MAX_LIMIT))
                .executions()
                .size());
    time(
        out,
        "job history",
        "execs",
        () ->
            master.queryExecutions(ExecutionQuery.ofJob("wf-0", "job-3", 50)).executions().size());
  }

  private static void header(PrintWriter out, String what, String size) {
    out.println(
        String.format(
            Locale.ROOT,
            "%-16s %-5s %9s %9s %9s %9s %9s",
            what,
            "kind",
            "p50 ms",
            "p99 ms",
            "max ms",
            "cpu ms",
            size));
  }

  /**
   * Calls {@code call} {@link #WARM_UP} times, then {@code --requests} times timed, and prints its
   * p50, p99, max, the CPU time this JVM (UI, master and an H2 store) spent per call, whatever the
   * machine's load, and the size the call returned last.
   */
  private void time(PrintWriter out, String name, String kind, Callable<Integer> call)
      throws Exception {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int w = 0; w < WARM_UP; w++) {
      call.call(); // templates and queries compiled by the JIT first
    }
    List<Long> micros = new ArrayList<>();
    int size = 0;
    long cpuBefore = os.getProcessCpuTime();
    for (int r = 0; r < requests; r++) {
      long start = System.nanoTime();
      size = call.call();
      micros.add((System.nanoTime() - start) / 1000);
    }
    double cpuMillis = (os.getProcessCpuTime() - cpuBefore) / 1e6 / requests;
    micros.sort(null);
    out.println(
        String.format(
            Locale.ROOT,
            "%-16s %-5s %9s %9s %9s %9s %9d",
            name,
            kind,
            Cells.of("%.1f", percentile(micros, 0.50) / 1000.0),
            Cells.of("%.1f", percentile(micros, 0.99) / 1000.0),
            Cells.of("%.1f", micros.get(micros.size() - 1) / 1000.0),
            Cells.of("%.1f", cpuMillis),
            size));
    out.flush();
  }

  private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String ok(HttpResponse<String> response, String path) {
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private static double percentile(List<Long> sorted, double q) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }
}
