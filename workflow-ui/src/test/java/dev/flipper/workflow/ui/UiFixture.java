package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
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
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the UI tests look at: a token master over Thrift on an ephemeral port, a UI reading it
 * through a Thrift client, and a stand-in for a worker's log endpoint (same protocol: {@code
 * /logs/<path>?offset=&max=} with the X-Log-* headers). Seeded with workflow {@code etl}: one
 * finished instance (a job that failed once, then succeeded) and one running instance whose {@code
 * transform} runs, with a job name, a property and a log line holding {@code <script>} (the XSS
 * checks). Two workers have heartbeats: {@link #WORKER}, alive, generation 1, running {@code
 * transform}, whose admin address is the log stand-in's (the UI reads logs only from known
 * workers), and {@link #DEAD_WORKER}, whose last beat is an hour old.
 */
final class UiFixture implements AutoCloseable {
  static final String XSS_JOB = "<script>window.xssJob=1</script>";
  static final String XSS_PROPERTY = "<script>window.xssProperty=1</script>";
  static final String XSS_LOG = "<script>window.xssLog=1</script>";
  static final String WORKER = "host-1-4242-a1b2";
  static final String DEAD_WORKER = "host-2-77-c3d4";
  private static final ObjectMapper JSON = new ObjectMapper();

  final TokenMasterServer server;
  final TokenMasterClient client;

  /** The UI's own client, made as the launcher makes it: one quick connection attempt per call. */
  final TokenMasterClient uiClient;

  final WorkflowEngine engine;
  final UiDaemon ui;
  final Javalin logServer;
  final Map<String, String> logs = new ConcurrentHashMap<>();
  String finished;
  String running;
  ClaimedJob runningJob;

  UiFixture() {
    this(UiAuth.NONE);
  }

  /** With sign-in as {@code auth} says. */
  UiFixture(UiAuth auth) {
    TokenService service = TokenService.builder(InMemoryTokenStore.create()).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    client = TokenMasterClient.builder("127.0.0.1", server.port()).build();
    engine = WorkflowEngine.builder(client).build();
    logServer =
        Javalin.create(c -> c.showJavalinBanner = false)
            .get("/logs/<path>", this::serveLog)
            .start("127.0.0.1", 0);
    uiClient =
        TokenMasterClient.builder("127.0.0.1", server.port())
            .connectAttempts(1)
            .connectTimeout(Duration.ofSeconds(2))
            .maxBackoff(Duration.ofSeconds(1))
            .build();
    ui =
        new UiDaemon(
            new UiDaemon.Config("127.0.0.1", 0, "127.0.0.1"),
            auth,
            uiClient,
            "127.0.0.1:" + server.port(),
            new MetricRegistry());
    ui.start();
  }

  String base() {
    return "http://127.0.0.1:" + ui.port();
  }

  /**
   * Applies {@code etl}, runs one instance to the end and leaves a second one running {@code
   * transform}.
   */
  UiFixture seed() {
    WorkflowDefinition etl =
        WorkflowDefinition.builder("etl")
            .description("Loads the day's events")
            .owners(List.of("data-team", "alice"))
            .schedule(Schedule.every(Duration.ofHours(1)))
            .job(JobDefinition.builder("extract").command("./extract.sh --day today"))
            .job(JobDefinition.builder("transform").needs("extract").command("./transform.sh"))
            .job(JobDefinition.builder("load").needs("transform").command("./load.sh"))
            .job(
                JobDefinition.builder("report")
                    .needs("extract")
                    .command("echo '" + XSS_LOG + "'")
                    .maxAttempts(2))
            .build();
    engine.definitions().apply(List.of(etl));
    ScheduleTokens.apply(client, List.of(etl), Instant.now());
    finished = engine.instances().start("etl");
    run(finished, "extract", 0, Map.of("job_url", List.of("https://jobs.example.com/1")));
    run(
        finished,
        "report",
        3,
        Map.of("note", List.of(XSS_PROPERTY), "kv_job_url", List.of("javascript:alert(1)")));
    run(finished, "report", 0, Map.of());
    run(finished, "transform", 0, Map.of());
    run(finished, "load", 0, Map.of());

    running = engine.instances().start("etl");
    run(running, "extract", 0, Map.of());
    runningJob = claim(running, "transform");
    engine.start(
        runningJob,
        new ExecutionStart(runningJob.command(), "host-1", logUrls(running, "transform", 1)));
    logs.put(path(running, "transform", 1, "stdout"), "reading events\n");
    addJobNamed(running, XSS_JOB);
    Instant now = Instant.now();
    Heartbeats heartbeats = new Heartbeats(client);
    heartbeats.beat(
        new Heartbeat(
            WORKER,
            "host-1",
            Optional.of("http://127.0.0.1:" + logServer.port()),
            1,
            4,
            List.of("etl/" + running + "/transform"),
            false,
            now.minusSeconds(600),
            now,
            Duration.ofMinutes(10)));
    heartbeats.beat(
        new Heartbeat(
            DEAD_WORKER,
            "host-2",
            Optional.of("http://host-2:9093"),
            1,
            2,
            List.of(),
            false,
            now.minusSeconds(7200),
            now.minusSeconds(3600),
            Duration.ofSeconds(30)));
    return this;
  }

  /**
   * Starts a new instance whose {@code extract} runs with these log URLs (made up by a job, say).
   */
  String runningWithLogs(Map<String, String> logUrls) {
    String instance = engine.instances().start("etl");
    ClaimedJob claimed = claim(instance, "extract");
    engine.start(claimed, new ExecutionStart(claimed.command(), "host-1", logUrls));
    return instance;
  }

  /**
   * Starts a new instance whose {@code transform} fails for good after {@code extract} succeeded:
   * {@code load} below it can never run, {@code report} still can.
   */
  String withFailedTransform() {
    String instance = engine.instances().start("etl");
    run(instance, "extract", 0, Map.of());
    run(instance, "transform", 1, Map.of());
    return instance;
  }

  /**
   * Claims {@code job} of {@code instance} and finishes it with the exit code; logs written as it
   * would.
   */
  private void run(
      String instance, String job, int exitCode, Map<String, List<String>> properties) {
    ClaimedJob claimed = claim(instance, job);
    int execution = claimed.execution();
    engine.start(
        claimed,
        new ExecutionStart(claimed.command(), "host-1", logUrls(instance, job, execution)));
    logs.put(
        path(instance, job, execution, "stdout"),
        "running " + job + "\n" + (job.equals("report") ? XSS_LOG + "\n" : "") + "done\n");
    logs.put(
        path(instance, job, execution, "stderr"),
        exitCode == 0 ? "" : "failed with " + exitCode + "\n");
    engine.finish(claimed, ExecutionResult.exit(exitCode, properties));
  }

  /** Claims until it gets {@code job}; hands the others back after. */
  private ClaimedJob claim(String instance, String job) {
    List<ClaimedJob> others = new ArrayList<>();
    try {
      while (true) {
        ClaimedJob claimed =
            engine
                .claim("worker-1", Duration.ofMinutes(10))
                .orElseThrow(
                    () -> new IllegalStateException("could not claim " + instance + "/" + job));
        if (claimed.instance().equals(instance) && claimed.job().equals(job)) {
          return claimed;
        }
        others.add(claimed);
      }
    } finally {
      others.forEach(engine::release);
    }
  }

  /** A waiting job whose name only a crafted token can hold: the UI must show any name as text. */
  private void addJobNamed(String instance, String name) {
    String prefix = "/workflow/etl/" + instance + "/job/waiting/";
    Token load = client.query(Query.prefix(prefix + "load")).get(0);
    try {
      ObjectNode data = (ObjectNode) JSON.readTree(load.data());
      data.put("name", name);
      client.modify(
          new ModifyParams(
              List.of(Token.of(prefix + "xss", JSON.writeValueAsString(data))), List.of()));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private Map<String, String> logUrls(String instance, String job, int execution) {
    String at = "http://127.0.0.1:" + logServer.port() + "/logs/";
    return Map.of(
        "stdout",
        at + path(instance, job, execution, "stdout"),
        "stderr",
        at + path(instance, job, execution, "stderr"));
  }

  private static String path(String instance, String job, int execution, String stream) {
    return "etl/" + instance + "/" + job + "." + execution + "." + stream;
  }

  /** The workers' log protocol, on strings. */
  private void serveLog(Context ctx) {
    String text = logs.get(ctx.pathParam("path"));
    if (text == null) {
      ctx.status(404).result("no log " + ctx.pathParam("path") + "\n");
      return;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (ctx.queryParam("offset") == null) {
      ctx.contentType("text/plain; charset=utf-8").result(bytes);
      return;
    }
    long offset = Long.parseLong(ctx.queryParam("offset"));
    int max = Integer.parseInt(ctx.queryParamAsClass("max", String.class).getOrDefault("65536"));
    int from =
        (int) (offset < 0 ? Math.max(0, bytes.length + offset) : Math.min(offset, bytes.length));
    int to = (int) Math.min(bytes.length, (long) from + max);
    ctx.header("X-Log-Offset", Integer.toString(from))
        .header("X-Log-Next-Offset", Integer.toString(to))
        .header("X-Log-Size", Integer.toString(bytes.length))
        .result(Arrays.copyOfRange(bytes, from, to));
  }

  /** Appends to a running job's log, as its process would. */
  void append(String instance, String job, int execution, String stream, String text) {
    logs.merge(path(instance, job, execution, stream), text, String::concat);
  }

  @Override
  public void close() {
    ui.close();
    uiClient.close();
    logServer.stop();
    client.close();
    server.close();
  }
}
