package dev.flipper.launcher.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.DamagedDefinitionException;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.master.server.TokenMasterServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flipper workflow apply|start|status} against a real master over Thrift on an ephemeral
 * port, found through {@code -c FILE --set master.port=N} as the daemons find it. A test thread
 * plays the worker.
 */
class WorkflowMasterCommandsTest {
  private static final Path EXAMPLES = Path.of("..", "examples", "workflows");

  @TempDir Path dir;

  private TokenService service;
  private TokenMasterServer server;
  private WorkflowEngine engine;
  private Path config;
  private String out;
  private String err;

  @BeforeEach
  void master() throws Exception {
    service = TokenService.builder(InMemoryTokenStore.create()).build();
    server = TokenMasterServer.builder(service).port(0).bindHost("127.0.0.1").build().start();
    engine = WorkflowEngine.builder(service).build();
    config = dir.resolve("flipper.yaml");
    // The port is wrong on purpose: --set must win. The database (for archived instances) does not
    // exist.
    Files.writeString(
        config, "master:\n  port: 1\n  jdbcUrl: \"jdbc:h2:file:" + dir.resolve("none") + "\"\n");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private int run(String... args) {
    CommandRun run = CommandRun.of(config, server.port(), args);
    out = run.out();
    err = run.err();
    return run.code();
  }

  @Test
  void applyStoresEveryFileThenReportsWhatChanged() throws Exception {
    assertThat(run("workflow", "apply", EXAMPLES.toString())).as(err).isZero();
    assertThat(out)
        .contains(
            "added:     diamond (version ",
            "added:     etl",
            "added:     sensor",
            "schedule:  etl\n")
        .endsWith("3 added, 0 changed, 0 removed, 0 unchanged\n");

    Path one = dir.resolve("diamond.yaml");
    Files.writeString(
        one, Files.readString(EXAMPLES.resolve("diamond.yaml")).replace("joining", "joined"));
    assertThat(run("workflow", "apply", one.toString())).as(err).isZero();
    assertThat(out)
        .startsWith("changed:   diamond (version ")
        .endsWith("0 added, 1 changed, 0 removed, 0 unchanged\n");

    assertThat(run("workflow", "apply", "--prune", one.toString())).as(err).isZero();
    assertThat(out)
        .isEqualTo(
            "removed:   etl\nremoved:   sensor\nunchanged: diamond\nunscheduled: etl\n"
                + "0 added, 0 changed, 2 removed, 1 unchanged\n");
    assertThat(engine.definitions().list()).hasSize(1);
  }

  /**
   * Issue #25: a definition whose stored text was changed behind the engine's back (its version
   * label left alone) was reported 'unchanged' by apply and kept. Apply re-hashes the stored text.
   */
  @Test
  void applyRepairsADefinitionTamperedWithInTheStore() throws Exception {
    Path diamond = EXAMPLES.resolve("diamond.yaml");
    assertThat(run("workflow", "apply", diamond.toString())).as(err).isZero();
    Token stored = service.query(Query.prefix("/definition/diamond")).get(0);
    ObjectNode data = (ObjectNode) new ObjectMapper().readTree(stored.data());
    String good = data.get("yaml").asText();
    assertThat(good).contains("joining");
    data.put("yaml", good.replace("joining", "rm -rf /tmp/nothing-here; joining"));
    service.modify(ModifyParams.updating(stored.withData(data.toString())));

    assertThatThrownBy(() -> engine.definitions().get("diamond"))
        .isInstanceOf(DamagedDefinitionException.class)
        .hasMessageContaining("/definition/diamond is damaged");
    assertThat(engine.definitions().list())
        .as("the list leaves a damaged definition out instead of failing")
        .noneMatch(d -> d.definition().name().equals("diamond"));

    assertThat(run("workflow", "apply", diamond.toString())).as(err).isZero();
    assertThat(out)
        .startsWith("repaired:  diamond (version ")
        .endsWith("0 added, 0 changed, 0 removed, 0 unchanged, 1 repaired\n");
    assertThat(engine.definitions().get("diamond").orElseThrow().definition().toYaml())
        .isEqualTo(good);

    assertThat(run("workflow", "apply", diamond.toString())).as(err).isZero();
    assertThat(out).endsWith("0 added, 0 changed, 0 removed, 1 unchanged\n");
  }

  @Test
  void applyWritesSchedulesUnscheduleRemovesOneAndBackfillStartsPastSlots() throws Exception {
    assertThat(run("workflow", "apply", EXAMPLES.toString())).as(err).isZero();
    assertThat(run("workflow", "reschedule", EXAMPLES.toString())).as(err).isZero();
    assertThat(out).doesNotContain("schedule:"); // unchanged: not rewritten

    // etl runs every day at 03:00Z from 2026-01-01.
    assertThat(
            run(
                "workflow",
                "backfill",
                "-w",
                "etl",
                "--from",
                "2026-01-01T00:00:00Z",
                "--to",
                "2026-01-03T03:00:00Z"))
        .as(err)
        .isZero();
    assertThat(out)
        .contains(
            " 2026-01-01 03:00:00 UTC\n",
            " 2026-01-02 03:00:00 UTC\n",
            " 2026-01-03 03:00:00 UTC\n")
        .doesNotContain("waiting")
        .endsWith("3 instances started\n");
    assertThat(engine.status().instances("etl"))
        .hasSize(3)
        .extracting(InstanceSummary::startedBy)
        .containsOnly("backfill"); // the run history's trigger
    assertThat(
            run(
                "workflow",
                "backfill",
                "-w",
                "diamond",
                "--from",
                "2026-01-01T00:00:00Z",
                "--to",
                "2026-01-02T00:00:00Z"))
        .isEqualTo(1);
    assertThat(err).contains("workflow 'diamond' has no schedule");

    assertThat(run("workflow", "unschedule", "-w", "etl")).as(err).isZero();
    assertThat(out).isEqualTo("unscheduled: etl\n");
    assertThat(run("workflow", "unschedule", "-w", "etl")).isEqualTo(1);
    assertThat(err).contains("workflow 'etl' has no schedule");
  }

  @Test
  void aCronTheSchedulerCannotReadChangesNothing() throws Exception {
    Path odd = dir.resolve("odd.yaml");
    Files.writeString(
        odd,
        "workflow: odd\nschedule:\n  cron: \"0 0 30 2 *\"\njobs:\n  a:\n    command: \"true\"\n");

    assertThat(run("workflow", "apply", odd.toString())).isEqualTo(1);

    assertThat(err)
        .contains("workflow 'odd': schedule.cron '0 0 30 2 *' never fires")
        .contains("nothing applied");
    assertThat(engine.definitions().list()).isEmpty();
  }

  @Test
  void aFileWithAProblemChangesNothing() throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "workflow: bad\njobs:\n  a:\n    comand: x\n");

    assertThat(run("workflow", "apply", EXAMPLES.toString(), bad.toString())).isEqualTo(1);

    assertThat(err).contains(bad + ":4: unknown key 'jobs.a.comand'").contains("nothing applied");
    assertThat(engine.definitions().list()).isEmpty();
  }

  @Test
  void startUnderAWorkflowLevelAbortWarns() throws Exception {
    run("workflow", "apply", EXAMPLES.resolve("diamond.yaml").toString());
    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();
    assertThat(err).isEmpty();
    dev.flipper.workflow.control.WorkflowControl.builder(engine)
        .build()
        .abort(dev.flipper.workflow.control.ControlScope.workflow("diamond"));

    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();

    assertThat(err)
        .startsWith(
            "warning: an ABORT signal covers workflow diamond (set for the workflow or globally)")
        .contains("'flipper workflow unabort -w diamond'");
  }

  @Test
  void startPrintsTheInstanceAndStatusShowsIt() throws Exception {
    run("workflow", "apply", EXAMPLES.resolve("diamond.yaml").toString());
    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();
    String instance = out.trim();
    assertThat(instance).matches("\\d{13}");
    drain(Map.of("split", 0, "left", 0, "right", 0, "join", 0));

    assertThat(run("workflow", "status")).as(err).isZero();
    assertThat(out)
        .startsWith("WORKFLOW")
        .contains("diamond")
        .contains("SUCCESS")
        .contains(instance);
    assertThat(run("workflow", "status", "-w", "diamond")).as(err).isZero();
    assertThat(out).contains(instance + "  SUCCESS");
    assertThat(run("workflow", "status", "-w", "diamond", "-i", instance)).as(err).isZero();
    assertThat(out)
        .contains("instance " + instance + ": SUCCESS")
        .contains("join")
        .contains("stdout=http://w/log");

    assertThat(run("workflow", "status", "-w", "diamond", "-i", instance, "--json"))
        .as(err)
        .isZero();
    JsonNode json = new ObjectMapper().readTree(out);
    assertThat(json.get("workflow").asText()).isEqualTo("diamond");
    assertThat(json.get("instance").asText()).isEqualTo(instance);
    assertThat(json.get("status").asText()).isEqualTo("SUCCESS");
    assertThat(json.get("start").asText()).endsWith("Z");
    assertThat(json.get("jobs")).hasSize(4);
    JsonNode split = json.get("jobs").get(0);
    assertThat(split.get("name").asText()).isEqualTo("split");
    assertThat(split.get("status").asText()).isEqualTo("SUCCESS");
    JsonNode execution = split.get("executions").get(0);
    assertThat(execution.get("attempt").asInt()).isEqualTo(1);
    assertThat(execution.get("exitCode").asInt()).isZero();
    assertThat(execution.get("logs").get("stdout").asText()).isEqualTo("http://w/log");
    assertThat(execution.has("properties")).isTrue();
    assertThat(execution.has("end")).isTrue();

    assertThat(run("workflow", "status", "--json")).as(err).isZero();
    assertThat(new ObjectMapper().readTree(out).get("workflows").get(0).get("status").asText())
        .isEqualTo("SUCCESS");
  }

  @Test
  void startWaitExitsZeroOnSuccessAndOneOnFailure() throws Exception {
    run("workflow", "apply", EXAMPLES.resolve("diamond.yaml").toString());
    AtomicBoolean stop = new AtomicBoolean();
    Thread worker =
        new Thread(
            () -> {
              while (!stop.get()) {
                Optional<ClaimedJob> job = engine.claim("test-worker", Duration.ofMinutes(1));
                if (job.isEmpty()) {
                  Thread.onSpinWait();
                  continue;
                }
                engine.start(job.get(), new ExecutionStart(job.get().command(), "w", Map.of()));
                boolean fail = failRight && job.get().job().equals("right");
                engine.finish(job.get(), ExecutionResult.exit(fail ? 3 : 0));
              }
            });
    worker.start();
    try {
      assertThat(run("workflow", "start", "-w", "diamond", "--wait")).as(err).isZero();
      assertThat(out).endsWith("SUCCESS\n");

      failRight = true;
      assertThat(run("workflow", "start", "-w", "diamond", "--wait")).isEqualTo(1);
      assertThat(out).endsWith("FAILURE\n");
    } finally {
      stop.set(true);
      worker.join();
    }
  }

  private volatile boolean failRight;

  /**
   * Issue #26: a paused or drained instance showed RUNNING. The signals are read with the status:
   * PAUSED, or DRAINED with the levels its DRAIN is set at, in the table, the detail and --json.
   */
  @Test
  void statusShowsPausedAndDrainedInstancesAsSuch() throws Exception {
    run("workflow", "apply", EXAMPLES.resolve("diamond.yaml").toString());
    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();
    String paused = out.trim();
    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();
    String drained = out.trim();
    assertThat(run("workflow", "pause", "-w", "diamond", "-i", paused)).as(err).isZero();

    assertThat(run("workflow", "status", "-w", "diamond", "--active")).as(err).isZero();
    assertThat(out).contains(paused + "  PAUSED (instance)").contains(drained + "  RUNNING");
    assertThat(run("workflow", "status")).as(err).isZero();
    assertThat(out).containsPattern("diamond +\\S+ +RUNNING +2 ");

    assertThat(run("workflow", "drain", "-w", "diamond")).as(err).isZero();
    assertThat(run("workflow", "status", "-w", "diamond", "--active")).as(err).isZero();
    assertThat(out)
        .contains(paused + "  PAUSED (instance)")
        .contains(drained + "  DRAINED (workflow)");
    assertThat(run("workflow", "status", "-w", "diamond", "-i", drained)).as(err).isZero();
    assertThat(out).contains(": DRAINED by a DRAIN signal (workflow level) (start ");
    assertThat(run("workflow", "status", "--json")).as(err).isZero();
    JsonNode workflow = new ObjectMapper().readTree(out).get("workflows").get(0);
    assertThat(workflow.get("status").asText()).isEqualTo("DRAINED");
    assertThat(workflow.get("runningInstances").asInt()).isEqualTo(2);
    assertThat(run("workflow", "status", "-w", "diamond", "-i", paused, "--json")).as(err).isZero();
    JsonNode json = new ObjectMapper().readTree(out);
    assertThat(json.get("status").asText()).isEqualTo("PAUSED");
    assertThat(json.get("hold").get("signal").asText()).isEqualTo("PAUSE");

    assertThat(run("workflow", "undrain", "-w", "diamond")).as(err).isZero();
    assertThat(run("workflow", "resume", "-w", "diamond", "-i", paused)).as(err).isZero();
    assertThat(run("workflow", "status", "-w", "diamond", "-i", paused, "--json")).as(err).isZero();
    json = new ObjectMapper().readTree(out);
    assertThat(json.get("status").asText()).isEqualTo("RUNNING");
    assertThat(json.get("hold").isNull()).isTrue();
  }

  /**
   * Issue #26: jobs below a job that failed for good showed WAITING for ever; they show
   * UPSTREAM_FAILED. Times read {@code 2026-11-28 10:15:03 UTC}, never ISO.
   */
  @Test
  void jobsBelowAFailureShowUpstreamFailedAndTimesAreLabelledUtc() throws Exception {
    run("workflow", "apply", EXAMPLES.resolve("diamond.yaml").toString());
    assertThat(run("workflow", "start", "-w", "diamond")).as(err).isZero();
    String instance = out.trim();
    drain(Map.of("split", 0, "left", 0, "right", 3));

    assertThat(run("workflow", "status", "-w", "diamond", "-i", instance)).as(err).isZero();
    assertThat(out)
        .containsPattern("\\nright +FAILURE ")
        .containsPattern("\\njoin +UPSTREAM_FAILED ")
        .containsPattern("\\(start \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, end ")
        .doesNotContainPattern("\\d\\dT\\d\\d:");
    assertThat(run("workflow", "status", "-w", "diamond", "-i", instance, "--json"))
        .as(err)
        .isZero();
    JsonNode jobs = new ObjectMapper().readTree(out).get("jobs");
    assertThat(jobs.get(3).get("name").asText()).isEqualTo("join");
    assertThat(jobs.get(3).get("status").asText()).isEqualTo("UPSTREAM_FAILED");
  }

  /**
   * Issue #26: backfill started every slot at once whatever the schedule's maxRunning. With
   * maxRunning 1 and an instance already running it waits, then starts one slot at a time as the
   * previous instance ends: no two ever run at once.
   */
  @Test
  void backfillNeverRunsMoreThanMaxRunningAndWaitsForTheRest() throws Exception {
    Path one = dir.resolve("one.yaml");
    Files.writeString(
        one,
        "workflow: one\nschedule:\n  every: 1d\n  start: \"2026-01-01T00:00:00Z\"\n"
            + "  maxRunning: 1\njobs:\n  a:\n    command: \"true\"\n  b:\n    needs: [a]\n"
            + "    command: \"true\"\n");
    assertThat(run("workflow", "apply", one.toString())).as(err).isZero();
    assertThat(run("workflow", "start", "-w", "one")).as(err).isZero();
    AtomicReference<CommandRun> backfill = new AtomicReference<>();
    Thread cli =
        new Thread(
            () ->
                backfill.set(
                    CommandRun.of(
                        config,
                        server.port(),
                        "workflow",
                        "backfill",
                        "-w",
                        "one",
                        "--from",
                        "2026-01-01T00:00:00Z",
                        "--to",
                        "2026-01-03T00:00:00Z",
                        "--check-every",
                        "20ms")));
    cli.start();
    // Asleep between counts: the instance started by hand holds the only place.
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> cli.getState() == Thread.State.TIMED_WAITING);
    assertThat(engine.status().instances("one")).hasSize(1);

    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger mostRunning = new AtomicInteger();
    Thread worker =
        new Thread(
            () -> {
              while (!stop.get()) {
                long running =
                    engine.status().instances("one").stream()
                        .filter(i -> i.status() == InstanceStatus.RUNNING)
                        .count();
                mostRunning.accumulateAndGet((int) running, Math::max);
                Optional<ClaimedJob> job = engine.claim("test-worker", Duration.ofMinutes(1));
                if (job.isPresent()) {
                  engine.start(job.get(), new ExecutionStart(job.get().command(), "w", Map.of()));
                  engine.finish(job.get(), ExecutionResult.exit(0));
                }
              }
            });
    worker.start();
    try {
      cli.join(Duration.ofSeconds(60).toMillis());
    } finally {
      stop.set(true);
      worker.join();
    }
    assertThat(backfill.get().code()).as(backfill.get().err()).isZero();
    assertThat(backfill.get().out())
        .startsWith(
            "waiting: 1 instances of one run and its schedule allows 1 (maxRunning); "
                + "3 slots wait, checked every 20ms\n")
        .contains(" 2026-01-01 00:00:00 UTC\n", " 2026-01-03 00:00:00 UTC\n")
        .endsWith("3 instances started\n");
    List<InstanceSummary> instances = engine.status().instances("one");
    assertThat(instances).hasSize(4);
    for (int i = 1; i < instances.size(); i++) {
      assertThat(instances.get(i).start())
          .as("instance %d starts after instance %d ended", i, i - 1)
          .isAfterOrEqualTo(instances.get(i - 1).end().orElseThrow());
    }
    assertThat(mostRunning.get()).isEqualTo(1);
  }

  @Test
  void backfillRefusesACheckIntervalThatIsNotADuration() {
    assertThat(
            run(
                "workflow",
                "backfill",
                "-w",
                "etl",
                "--from",
                "2026-01-01T00:00:00Z",
                "--to",
                "2026-01-03T00:00:00Z",
                "--check-every",
                "5"))
        .isEqualTo(2);
    assertThat(err).contains("--check-every '5' is not a duration above zero");
  }

  @Test
  void anUnknownWorkflowIsAnError() {
    assertThat(run("workflow", "start", "-w", "nope")).isEqualTo(1);
    assertThat(err).contains("no workflow 'nope'");
    assertThat(run("workflow", "status", "-w", "nope")).isEqualTo(1);
  }

  /** Runs every runnable job with the given exit code per job name until nothing is left. */
  private void drain(Map<String, Integer> exitCodes) {
    Optional<ClaimedJob> job;
    while ((job = engine.claim("test-worker", Duration.ofMinutes(1))).isPresent()) {
      engine.start(
          job.get(),
          new ExecutionStart(job.get().command(), "w", Map.of("stdout", "http://w/log")));
      engine.finish(job.get(), ExecutionResult.exit(exitCodes.get(job.get().job()), Map.of()));
    }
  }
}
