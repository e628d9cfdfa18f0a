package dev.flipper.bench;

import ch.qos.logback.classic.Level;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.text.DurationText;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.jdbc.JdbcTokenStore;
import dev.flipper.token.jdbc.JdbcTokenStoreConfig;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.mail.MailSettings;
import dev.flipper.workflow.master.client.TokenMasterClient;
import dev.flipper.workflow.master.server.TokenMasterServer;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.InstanceStarter;
import dev.flipper.workflow.scheduler.ScheduleRunner;
import dev.flipper.workflow.scheduler.SchedulerDaemon;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code flipper bench schedules}: how late schedules fire. A token master serves a new database
 * over Thrift in this JVM; {@code --schedules} workflows are scheduled every second ({@code
 * START_NEW}; no worker runs the instances, and the benchmark ends each 3 to 8 s after its slot by
 * deleting its tokens), and {@code --schedulers} schedulers fire them for {@code --duration},
 * either as scheduler daemons in this JVM, each with its own Thrift client, or as {@code flipper -m
 * scheduler} processes ({@code --processes}). Prints the fire lateness (an instance's start time
 * after its slot: p50/p99/max), the slots expected and fired, and checks that every slot fired
 * exactly once (exit code 1 if not).
 *
 * <p>It WRITES DATA only to a database it creates (see {@link BenchDatabase}), one per scheduler
 * count, dropped at the end. Not a test. Not thread-safe; one run per instance.
 */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Fires schedules every second with 1 and 3 schedulers and prints how late they fire.",
      "Prints fire lateness p50/p99/max and the slots expected and fired; fails if a slot fired twice or "
          + "not at all.",
      "WRITES DATA, only to a database it creates (a new H2 file for jdbc:h2:) and drops at the end; a "
          + "database or file that exists is refused."
    },
    footer = {
      "",
      "Examples:",
      "  flipper bench schedules --duration 10s",
      "  flipper bench schedules --schedulers 3 --processes --url jdbc:mysql://127.0.0.1:3306/"
    })
public final class ScheduleBenchmark implements Callable<Integer> {
  /** After the last slot, how long the schedulers may still fire it before they are stopped. */
  private static final Duration GRACE = Duration.ofSeconds(3);

  /**
   * Slots after this are also reported apart: fresh JVMs compile their hot code in the first
   * seconds.
   */
  private static final Duration WARM_UP = Duration.ofSeconds(10);

  @Spec CommandSpec spec;

  @Mixin NewDatabaseOptions db;

  @Option(
      names = "--schedules",
      defaultValue = "200",
      description = "Workflows scheduled every second. Default: ${DEFAULT-VALUE}")
  int schedules;

  @Option(
      names = "--schedulers",
      split = ",",
      defaultValue = "1,3",
      paramLabel = "N[,N...]",
      description = "Schedulers, one run (and database) per number. Default: ${DEFAULT-VALUE}")
  List<Integer> schedulers;

  @Option(
      names = "--duration",
      defaultValue = "60s",
      description = "Length of each run (" + DurationText.FORMS + "). Default: ${DEFAULT-VALUE}")
  String durationText;

  @Option(
      names = "--processes",
      description =
          "Each scheduler is a `flipper -m scheduler` process (default: a "
              + "scheduler daemon in this JVM).")
  boolean processes;

  @Override
  public Integer call() throws Exception {
    Duration duration =
        DurationText.parse(durationText)
            .filter(d -> d.toMillis() >= 1000)
            .orElseThrow(
                () ->
                    new ParameterException(
                        spec.commandLine(),
                        "--duration must be at least 1s, in the form "
                            + DurationText.FORMS
                            + "; was '"
                            + durationText
                            + "'"));
    if (schedules < 1) {
      throw new ParameterException(
          spec.commandLine(), "--schedules must be at least 1, was " + schedules);
    }
    for (int n : schedulers) {
      if (n < 1 || n > 32) {
        throw new ParameterException(
            spec.commandLine(), "--schedulers must be 1 to 32 each, was " + n);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    boolean allOnce = true;
    for (int n : schedulers) {
      try (BenchDatabase database = db.create(spec)) {
        out.printf(
            Locale.ROOT,
            "schedule benchmark: %s, %d schedules every 1s, %d scheduler%s (%s), %s; load "
                + "average %.2f%n",
            database.describe(),
            schedules,
            n,
            n == 1 ? "" : "s",
            processes ? "processes" : "in this JVM",
            DurationText.format(duration),
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.flush();
        Result result = run(database.url(), n, duration);
        out.println(result);
        out.flush();
        allOnce &= result.exactlyOnce();
      }
    }
    out.println(
        "lateness = an instance's start time (when its change was built) after its slot; no worker runs"
            + " the instances: the benchmark deletes each 3 to 8 s after its slot, as a finished and archived one leaves");
    out.flush();
    return allOnce ? 0 : 1;
  }

  /** What a run measured; lateness in ms. */
  record Result(
      int schedulers,
      long expected,
      long fired,
      long duplicates,
      long missing,
      Histogram lateness,
      Histogram warm) {
    boolean exactlyOnce() {
      return duplicates == 0 && missing == 0;
    }

    @Override
    public String toString() {
      return String.format(
              Locale.ROOT,
              "%d scheduler%s: slots expected %d, fired %d (duplicates %d, missing %d)"
                  + "  lateness p50 %d ms  p99 %d ms  max %d ms%s",
              schedulers,
              schedulers == 1 ? " " : "s",
              expected,
              fired,
              duplicates,
              missing,
              lateness.getValueAtPercentile(50),
              lateness.getValueAtPercentile(99),
              lateness.getMaxValue(),
              exactlyOnce() ? "" : "  FAILED: every slot must fire exactly once")
          + (warm.getTotalCount() == 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  "%n  after the first %ds (warm JVMs): "
                      + "lateness p50 %d ms  p99 %d ms  max %d ms",
                  WARM_UP.toSeconds(),
                  warm.getValueAtPercentile(50),
                  warm.getValueAtPercentile(99),
                  warm.getMaxValue()));
    }
  }

  private Result run(String jdbcUrl, int count, Duration duration) throws Exception {
    try (JdbcTokenStore store =
        JdbcTokenStore.open(
            JdbcTokenStoreConfig.of(jdbcUrl, db.user, db.password)
                .withPoolSize(Math.max(10, count * 4)))) {
      TokenService service = TokenService.builder(store).build();
      TokenMasterServer server =
          TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
      Schedulers running =
          processes
              ? new ProcessSchedulers(count, server.port())
              : new JvmSchedulers(count, server.port());
      try {
        running.awaitReady();
        WorkflowEngine engine = WorkflowEngine.builder(service).build();
        // Every whole second is a slot, whatever the start; storing 200 definitions may take
        // seconds on a
        // loaded machine, so the first slot is chosen after it, and the schedules are placed from
        // that slot on.
        List<WorkflowDefinition> definitions =
            definitions(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        engine.definitions().apply(definitions);
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        Instant end = start.plus(duration).minusSeconds(1);
        ScheduleTokens.apply(service, definitions, start);
        Tally tally = new Tally(definitions, start, end);
        Ender ender = new Ender(service, tally);
        ender.start();
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), end.plus(GRACE)).toMillis()));
        running.close();
        ender.close();
        ender.endAll(Instant.MAX);
        return tally.result(count);
      } finally {
        running.close();
        server.close();
      }
    }
  }

  private List<WorkflowDefinition> definitions(Instant start) {
    List<WorkflowDefinition> definitions = new ArrayList<>();
    for (int i = 0; i < schedules; i++) {
      // catchUp: a slot claimed after the next one is due still fires (and its lateness shows)
      // instead of being
      // skipped; START_NEW with a high limit: the instances end only when the Ender deletes them.
      definitions.add(
          WorkflowDefinition.builder(String.format(Locale.ROOT, "bench_s%04d", i))
              .schedule(
                  Schedule.every(Duration.ofSeconds(1))
                      .start(start)
                      .overrun(OverrunPolicy.START_NEW)
                      .maxRunning(1_000_000)
                      .catchUp(5))
              .job(JobDefinition.builder("a").command("true"))
              .build());
    }
    return definitions;
  }

  /** The slots fired per workflow and their lateness, as instances are ended. Not thread-safe. */
  private static final class Tally {
    private final Map<String, Map<Instant, Integer>> bySlot = new HashMap<>();
    private final Histogram lateness = new Histogram(3_600_000L, 3);
    private final Histogram warm = new Histogram(3_600_000L, 3);
    private final Instant start;
    private final Instant end;
    private long fired;

    Tally(List<WorkflowDefinition> definitions, Instant start, Instant end) {
      definitions.forEach(d -> bySlot.put(d.name(), new HashMap<>()));
      this.start = start;
      this.end = end;
    }

    Iterable<String> workflows() {
      return bySlot.keySet();
    }

    void add(String workflow, Instant slot, Instant started) {
      bySlot.get(workflow).merge(slot, 1, Integer::sum);
      if (!slot.isAfter(end)) { // later slots fired while the schedulers were being stopped
        fired++;
        long millis = Math.max(0, Duration.between(slot, started).toMillis());
        lateness.recordValue(millis);
        if (!slot.isBefore(start.plus(WARM_UP))) {
          warm.recordValue(millis);
        }
      }
    }

    Result result(int schedulers) {
      long expected = 0;
      long duplicates = 0;
      long missing = 0;
      for (Map<Instant, Integer> slots : bySlot.values()) {
        for (Instant slot = start; !slot.isAfter(end); slot = slot.plusSeconds(1)) {
          expected++;
          int times = slots.getOrDefault(slot, 0);
          missing += times == 0 ? 1 : 0;
          duplicates += Math.max(0, times - 1);
        }
      }
      return new Result(schedulers, expected, fired, duplicates, missing, lateness, warm);
    }
  }

  /**
   * Ends the instances (deletes their tokens, counting them first) a few seconds after their slot,
   * as finished and archived instances would leave: no worker runs them, and without this each
   * workflow would gather an instance a second, every one of which the scheduler reads for the
   * overrun policy. With it a workflow has at most eight, as {@code maxRunning} keeps real ones.
   * One read and one write every 5 s, in this JVM.
   */
  private static final class Ender implements AutoCloseable {
    private static final Duration KEEP = Duration.ofSeconds(3);
    private static final Duration EVERY = Duration.ofSeconds(5);

    private final TokenService master;
    private final Tally tally;
    private final Thread thread = new Thread(this::loop, "bench-instance-ender");
    private volatile boolean closed;

    Ender(TokenService master, Tally tally) {
      this.master = master;
      this.tally = tally;
    }

    void start() {
      thread.setDaemon(true);
      thread.start();
    }

    private void loop() {
      while (!closed) {
        try {
          Thread.sleep(EVERY.toMillis());
          endAll(Instant.now().minus(KEEP));
        } catch (InterruptedException e) {
          return;
        } catch (RuntimeException e) {
          // A failed round (a conflict with a late start): the next round ends them.
        }
      }
    }

    /** Counts and deletes every instance whose slot is before {@code before}. */
    void endAll(Instant before) {
      List<String> workflows = new ArrayList<>();
      List<Query> queries = new ArrayList<>();
      for (String workflow : tally.workflows()) {
        workflows.add(workflow);
        queries.add(Query.prefix(TokenLayout.workflowPrefix(workflow)));
        queries.add(Query.prefix(TokenLayout.RUNNABLE + workflow + "/"));
      }
      List<List<Token>> read = master.query(queries);
      List<Token> deletes = new ArrayList<>();
      List<Runnable> counts = new ArrayList<>();
      for (int i = 0; i < workflows.size(); i++) {
        String workflow = workflows.get(i);
        List<String> ended = new ArrayList<>();
        for (Token token : read.get(2 * i)) {
          if (token.name().endsWith("/instance")) {
            InstanceData data = Json.read(token, InstanceData.class);
            Instant slot = Instant.parse(data.params.get(InstanceStarter.SCHEDULED_TIME));
            if (slot.isBefore(before)) {
              ended.add(data.instance);
              counts.add(() -> tally.add(workflow, slot, Instant.ofEpochMilli(data.startMillis)));
            }
          }
        }
        for (Token token : read.get(2 * i)) {
          if (ended.stream()
              .anyMatch(id -> token.name().startsWith(TokenLayout.instancePrefix(workflow, id)))) {
            deletes.add(token);
          }
        }
        for (Token token : read.get(2 * i + 1)) {
          if (ended.stream()
              .anyMatch(id -> token.name().startsWith(TokenLayout.runnablePrefix(workflow, id)))) {
            deletes.add(token);
          }
        }
      }
      if (!deletes.isEmpty()) {
        master.modify(new ModifyParams(List.of(), deletes));
      }
      counts.forEach(Runnable::run); // only once deleted: a failed round counts nothing
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.interrupt();
      thread.join();
    }
  }

  /** The schedulers of one run. */
  private interface Schedulers extends AutoCloseable {
    void awaitReady() throws Exception;

    /** Stops them; idempotent. */
    @Override
    void close() throws Exception;
  }

  /**
   * Scheduler daemons in this JVM, each with its own Thrift client, as separate processes would
   * have.
   */
  private static final class JvmSchedulers implements Schedulers {
    private final List<SchedulerDaemon> daemons = new ArrayList<>();
    private final List<TokenMasterClient> clients = new ArrayList<>();

    JvmSchedulers(int count, int port) {
      // A line per fire (200 a second) would bury the figures on this console; processes log to
      // their own file.
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ScheduleRunner.class))
          .setLevel(Level.WARN);
      for (int i = 0; i < count; i++) {
        TokenMasterClient client = TokenMasterClient.builder("127.0.0.1", port).build();
        clients.add(client);
        daemons.add(
            new SchedulerDaemon(
                new MetricRegistry(),
                client,
                MailSettings.disabled(),
                "",
                SchedulerDaemon.Config.defaults()));
      }
    }

    @Override
    public void awaitReady() {
      daemons.forEach(SchedulerDaemon::start);
    }

    @Override
    public void close() {
      daemons.forEach(SchedulerDaemon::close);
      clients.forEach(TokenMasterClient::close);
    }
  }

  /**
   * {@code flipper -m scheduler} processes (this JVM's java and class path), their config and
   * output in temporary files.
   */
  private static final class ProcessSchedulers implements Schedulers {
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final Path config;

    ProcessSchedulers(int count, int port) throws IOException {
      config = Files.createTempFile("flipper-bench-scheduler-", ".yaml");
      Files.writeString(
          config,
          String.join(
              "\n",
              "master:",
              "  port: " + port,
              "scheduler:",
              "  adminPort: 0",
              "  masterHost: 127.0.0.1",
              ""));
      for (int i = 0; i < count; i++) {
        Path log = Files.createTempFile("flipper-bench-scheduler-", ".log");
        logs.add(log);
        List<String> command =
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.flipper.launcher.Launcher",
                "-c",
                config.toString(),
                "-m",
                "scheduler");
        ProcessBuilder builder =
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        processes.add(builder.start());
      }
    }

    @Override
    public void awaitReady() throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      for (int i = 0; i < processes.size(); i++) {
        while (!Files.readString(logs.get(i)).contains("flipper: scheduler ready")) {
          if (!processes.get(i).isAlive() || System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "scheduler process "
                    + i
                    + " did not get ready; its output:\n"
                    + Files.readString(logs.get(i)));
          }
          Thread.sleep(100);
        }
      }
    }

    @Override
    public void close() throws Exception {
      processes.forEach(Process::destroy); // SIGTERM: the launcher stops the scheduler gracefully
      for (Process process : processes) {
        process.waitFor();
      }
      for (Path log : logs) {
        Files.deleteIfExists(log);
      }
      Files.deleteIfExists(config);
    }
  }
}
