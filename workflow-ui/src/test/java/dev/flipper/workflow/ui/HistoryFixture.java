package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunArchive;
import dev.flipper.history.RunRecord;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run history for the UI tests: an in-memory token master (in process, as the benchmark runs
 * it) whose engine archives a finished instance at once (archive delay 0, as a worker's archiver
 * with a short delay), and a UI on it. Three workflows:
 *
 * <ul>
 *   <li>{@code etl} (extract, transform, load) run for real: {@link #first} succeeded, {@link
 *       #second} needed two attempts of transform; both archived by the engine as a worker does;
 *       {@link #third} is active, its transform running.
 *   <li>{@code nightly}: ten jobs (defined out of name order) and {@link #NIGHTLY_RUNS} archived
 *       runs recorded straight into the history ({@code archive(no tokens, run)}), one an hour from
 *       {@link #BASE}; job {@code k} (0-based, definition order) of run {@code i} fails when {@link
 *       #fails}, runs twice when {@link #twice}, and job 9 never runs in odd runs.
 *   <li>{@code filtered} (one job): ten archived runs a day on 2026-11-01, -02 and -03 at 10:00 + i
 *       minutes; run {@code i} failed when {@code i % 3 == 0}, started by {@code cli} when even,
 *       else {@code scheduler}, with the parameter {@code day=<date>}.
 * </ul>
 */
final class HistoryFixture implements AutoCloseable {
  static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");
  static final int NIGHTLY_RUNS = 30;
  static final List<String> NIGHTLY_JOBS =
      List.of(
          "fetch",
          "clean",
          "dedupe",
          "enrich",
          "aggregate",
          "index",
          "export",
          "notify",
          "audit",
          "archive");

  /** The master's and engine's clock: real time, moved on to make finished instances due. */
  private final ShiftedClock clock = new ShiftedClock();

  final TokenService master;
  final WorkflowEngine engine;
  final UiDaemon ui;
  String first;
  String second;
  String third;

  HistoryFixture() {
    master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    engine = WorkflowEngine.builder(master).clock(clock).archiveDelay(Duration.ZERO).build();
    ui =
        new UiDaemon(
            new UiDaemon.Config("127.0.0.1", 0, "127.0.0.1"),
            UiAuth.NONE,
            master,
            "in-process",
            new MetricRegistry());
    ui.start();
  }

  String base() {
    return "http://127.0.0.1:" + ui.port();
  }

  HistoryFixture seed() {
    seedEtl();
    seedNightly();
    seedFiltered();
    return this;
  }

  /** Three real runs of etl; the first two finish and the engine archives them. */
  private void seedEtl() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("etl")
                    .job(JobDefinition.builder("extract").command("./extract.sh"))
                    .job(
                        JobDefinition.builder("transform")
                            .needs("extract")
                            .command("./transform.sh")
                            .maxAttempts(2))
                    .job(JobDefinition.builder("load").needs("transform").command("./load.sh"))
                    .build()));
    first = engine.instances().start("etl");
    run(first, "extract", 0);
    run(first, "transform", 0);
    run(first, "load", 0);
    second = engine.instances().start("etl");
    run(second, "extract", 0);
    run(second, "transform", 1);
    run(second, "transform", 0);
    run(second, "load", 0);
    clock.advance(Duration.ofSeconds(5)); // the archive tokens hold whole seconds
    int archived = engine.archiveDue();
    if (archived != 2) {
      throw new IllegalStateException(
          "expected 2 archived etl runs, the engine archived " + archived);
    }
    third = engine.instances().start("etl");
    run(third, "extract", 0);
    ClaimedJob transform = claim(third, "transform");
    engine.start(transform, new ExecutionStart(transform.command(), "host-1", logs(transform)));
  }

  static boolean fails(int run, int job) {
    return (run + job * 5) % 37 == 0;
  }

  static boolean twice(int run, int job) {
    return (run + job) % 6 == 0;
  }

  static boolean ran(int run, int job) {
    return job != 9 || run % 2 == 0;
  }

  static String nightlyInstance(int run) {
    return Long.toString(BASE.plus(Duration.ofHours(run)).toEpochMilli());
  }

  private void seedNightly() {
    WorkflowDefinition.Builder nightly = WorkflowDefinition.builder("nightly");
    NIGHTLY_JOBS.forEach(j -> nightly.job(JobDefinition.builder(j).command("./" + j + ".sh")));
    engine.definitions().apply(List.of(nightly.build()));
    for (int i = 0; i < NIGHTLY_RUNS; i++) {
      long start = BASE.plus(Duration.ofHours(i)).toEpochMilli();
      String instance = nightlyInstance(i);
      List<ExecutionRecord> executions = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      for (int k = 0; k < NIGHTLY_JOBS.size(); k++) {
        if (!ran(i, k)) {
          continue;
        }
        String job = NIGHTLY_JOBS.get(k);
        int execution = 1;
        if (twice(i, k)) {
          executions.add(execution("nightly", instance, job, execution++, "FAILURE", start));
        }
        executions.add(
            execution(
                "nightly", instance, job, execution, fails(i, k) ? "FAILURE" : "SUCCESS", start));
        if (fails(i, k)) {
          failed.add(job);
        }
      }
      record(
          "nightly",
          instance,
          failed.isEmpty() ? "SUCCESS" : "FAILURE",
          "scheduler",
          start,
          start + ((i * 7) % 11 + 2) * 30_000L,
          Map.of(),
          failed,
          executions);
    }
  }

  static String filteredInstance(int day, int i) {
    return Long.toString(filteredStart(day, i));
  }

  static long filteredStart(int day, int i) {
    return Instant.parse("2026-11-0" + day + "T10:00:00Z")
        .plus(Duration.ofMinutes(i))
        .toEpochMilli();
  }

  private void seedFiltered() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("filtered")
                    .job(JobDefinition.builder("only").command("./only.sh"))
                    .build()));
    for (int day = 1; day <= 3; day++) {
      for (int i = 0; i < 10; i++) {
        long start = filteredStart(day, i);
        record(
            "filtered",
            filteredInstance(day, i),
            i % 3 == 0 ? "FAILURE" : "SUCCESS",
            i % 2 == 0 ? "cli" : "scheduler",
            start,
            start + 1000L * (i + 1),
            Map.of("day", "2026-11-0" + day),
            List.of(),
            List.of());
      }
    }
  }

  private void record(
      String workflow,
      String instance,
      String status,
      String startedBy,
      long start,
      long end,
      Map<String, String> params,
      List<String> failedJobs,
      List<ExecutionRecord> executions) {
    master.archive(
        List.of(),
        new RunArchive(
            new RunRecord(
                workflow,
                instance,
                status,
                startedBy,
                start,
                end,
                new LinkedHashMap<>(params),
                failedJobs),
            executions));
  }

  private static ExecutionRecord execution(
      String workflow, String instance, String job, int execution, String status, long start) {
    return new ExecutionRecord(
        workflow,
        instance,
        job,
        execution,
        execution,
        status,
        start + execution * 1000L,
        start + execution * 1000L + 500,
        status.equals("SUCCESS") ? 0 : 1,
        "worker-1",
        "host-1",
        null,
        Map.of("stdout", "http://host-1:9093/logs/" + workflow + "/" + instance + "/" + job));
  }

  private void run(String instance, String job, int exitCode) {
    ClaimedJob claimed = claim(instance, job);
    engine.start(claimed, new ExecutionStart(claimed.command(), "host-1", logs(claimed)));
    clock.advance(Duration.ofSeconds(1)); // each execution takes a second: a clear order
    engine.finish(claimed, ExecutionResult.exit(exitCode, Map.of()));
  }

  private static Map<String, String> logs(ClaimedJob job) {
    return Map.of(
        "stdout",
        "http://host-1:9093/logs/etl/" + job.instance() + "/" + job.job() + "." + job.execution());
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

  /** The system clock, moved ahead by {@link #advance}. */
  private static final class ShiftedClock extends Clock {
    private volatile Duration shift = Duration.ZERO;

    synchronized void advance(Duration by) {
      shift = shift.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("UTC only");
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(shift);
    }
  }

  @Override
  public void close() {
    ui.close();
  }
}
