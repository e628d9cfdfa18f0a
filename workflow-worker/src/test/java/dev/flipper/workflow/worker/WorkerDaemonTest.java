package dev.flipper.workflow.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.worker.exec.CommandTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker daemon in-process on an in-memory master, with real shell jobs. */
@Tag("processes")
class WorkerDaemonTest {
  private final MetricRegistry metrics = new MetricRegistry();
  private final TokenService master = TokenService.builder(InMemoryTokenStore.create()).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).build();
  @TempDir Path dir;
  private WorkerDaemon daemon;

  @AfterEach
  void stop() {
    if (daemon != null) {
      daemon.close();
    }
  }

  private WorkerDaemon daemon(int count, Duration grace) {
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
            count,
            Duration.ofSeconds(3),
            Duration.ofHours(12),
            grace,
            dir.resolve("logs").toString(),
            "",
            "127.0.0.1",
            "127.0.0.1");
    daemon = new WorkerDaemon(config, master, metrics).serveLogsAt(() -> "http://127.0.0.1:1");
    return daemon;
  }

  /**
   * Issue #26: with too little free space in the log folder, a claimed job is not started but
   * handed back unstarted (claimable by another worker), and runs once there is room again.
   */
  @Test
  void aJobIsHandedBackUnstartedWhileTheLogDiskIsLowAndRunsOnceThereIsRoom() throws Exception {
    Path ran = dir.resolve("ran");
    AtomicLong free = new AtomicLong(100L << 20);
    WorkerDaemon.Config config =
        new WorkerDaemon.Config(
                1,
                Duration.ofSeconds(3),
                Duration.ofHours(12),
                Duration.ofSeconds(5),
                dir.resolve("logs").toString(),
                "",
                "127.0.0.1",
                "127.0.0.1")
            .withLogLimits(1L << 20, 0, 256L << 20);
    daemon = new WorkerDaemon(config, master, metrics).freeSpace(logDir -> free.get());
    daemon.start();
    String instance =
        start(
            WorkflowDefinition.builder("lowdisk")
                .job(JobDefinition.builder("j").command("touch " + ran))
                .build());

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> metrics.counter("workers.jobs.handedBack").getCount() >= 1);
    JobDetail job =
        engine.status().instance("lowdisk", instance).orElseThrow().job("j").orElseThrow();
    assertThat(job.executions()).isEmpty();
    assertThat(ran).doesNotExist();
    // Left for another worker: claimable at once.
    ClaimedJob other =
        engine.claim("other-worker", Duration.ofSeconds(5), Duration.ZERO).orElseThrow();
    assertThat(other.job()).isEqualTo("j");
    engine.release(other);

    free.set(1L << 30);
    InstanceDetail detail = awaitEnd("lowdisk", instance);
    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(ran).exists();
  }

  private String start(WorkflowDefinition definition) {
    engine.definitions().apply(List.of(definition));
    return engine.instances().start(definition.name());
  }

  private InstanceDetail awaitEnd(String workflow, String instance) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                engine.status().instance(workflow, instance).orElseThrow().summary().status()
                    != InstanceStatus.RUNNING);
    return engine.status().instance(workflow, instance).orElseThrow();
  }

  @Test
  void runsADiamondPassingDataAndRecordsLogUrls() throws Exception {
    String out = dir.resolve("join.out").toString();
    WorkflowDefinition diamond =
        WorkflowDefinition.builder("diamond")
            .job(JobDefinition.builder("split").command("echo FLIPPER:EVENT_ATTR:day=d1"))
            .job(
                JobDefinition.builder("left")
                    .needs("split")
                    .command("echo FLIPPER:EVENT_ATTR:part=L-%(day)s"))
            .job(
                JobDefinition.builder("right")
                    .needs("split")
                    .command("echo FLIPPER:EVENT_ATTR:part=R-%(day)s"))
            .job(
                JobDefinition.builder("join")
                    .needs("left", "right")
                    .command("echo \"$FLIPPER_JOB\" %(part)s > " + out))
            .build();
    daemon(2, Duration.ofSeconds(5)).start();
    String instance = start(diamond);

    InstanceDetail detail = awaitEnd("diamond", instance);

    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(Files.readString(Path.of(out)).strip()).isIn("join L-d1,R-d1", "join R-d1,L-d1");
    ExecutionDetail split = detail.job("split").orElseThrow().lastExecution().orElseThrow();
    assertThat(split.logs())
        .containsEntry("stdout", "http://127.0.0.1:1/logs/diamond/" + instance + "/split.1.stdout");
    assertThat(split.worker()).matches(".+-" + ProcessHandle.current().pid() + "-[12]-[0-9a-f]{6}");
    assertThat(Files.readString(dir.resolve("logs/diamond/" + instance + "/split.1.stdout")))
        .contains("FLIPPER:EVENT_ATTR:day=d1");
  }

  /**
   * Issue #25: a value a parent published went into the child's shell command unquoted, so a value
   * with shell syntax ran as commands. It reaches the command as one word now.
   */
  @Test
  void aPublishedValueIsOneShellWordNotCommands() throws Exception {
    Path out = dir.resolve("value.out");
    Path pwned = dir.resolve("pwned");
    String value = "\"x\"; touch " + pwned + " $(touch " + pwned + "2) `touch " + pwned + "3`";
    WorkflowDefinition quoting =
        WorkflowDefinition.builder("quoting")
            .job(
                JobDefinition.builder("publish")
                    .command(
                        "printf '%s\\n' "
                            + CommandTemplate.shellQuote("FLIPPER:EVENT_ATTR:v=" + value)))
            .job(
                JobDefinition.builder("use").needs("publish").command("printf '%s' %(v)s > " + out))
            .build();
    daemon(1, Duration.ofSeconds(5)).start();
    String instance = start(quoting);

    InstanceDetail detail = awaitEnd("quoting", instance);

    assertThat(Path.of(pwned + "")).doesNotExist();
    assertThat(Path.of(pwned + "2")).doesNotExist();
    assertThat(Path.of(pwned + "3")).doesNotExist();
    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(Files.readString(out)).isEqualTo(value);
  }

  @Test
  void retriesAFailingJobAndFailsTheInstanceWhenAttemptsRunOut() {
    WorkflowDefinition failing =
        WorkflowDefinition.builder("failing")
            .job(JobDefinition.builder("bad").command("exit 3").maxAttempts(2))
            .build();
    daemon(1, Duration.ofSeconds(5)).start();
    String instance = start(failing);

    InstanceDetail detail = awaitEnd("failing", instance);

    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    JobDetail bad = detail.job("bad").orElseThrow();
    assertThat(bad.executions()).extracting(ExecutionDetail::exitCode).containsExactly(3, 3);
  }

  @Test
  void pinballVariablesNumberTheExecutionAndKillIdsReachTheCleanup() throws Exception { // [25] [27]
    Path seen = dir.resolve("seen.txt");
    Path killed = dir.resolve("killed.txt");
    WorkflowDefinition env =
        WorkflowDefinition.builder("env")
            .job(
                JobDefinition.builder("j")
                    .maxAttempts(2)
                    .command(
                        "echo \"$PINBALL_WORKFLOW $PINBALL_INSTANCE $PINBALL_JOB $PINBALL_EXECUTION $FLIPPER_ATTEMPT\" >> "
                            + seen
                            + "; echo FLIPPER:kill_id=x; echo PINBALL:kill_id=x; [ \"$PINBALL_EXECUTION\" = 1 ]")
                    .cleanup("echo killed %(kill_id)s >> " + killed))
            .build();
    daemon(1, Duration.ofSeconds(5)).start();
    String instance = start(env);

    InstanceDetail detail = awaitEnd("env", instance);

    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(Files.readAllLines(seen))
        .containsExactly("env " + instance + " j 0 1", "env " + instance + " j 1 2");
    List<ExecutionDetail> runs = detail.job("j").orElseThrow().executions();
    assertThat(runs.get(0).properties())
        .containsEntry("kill_id", List.of("x")); // one value, not two
    assertThat(runs.get(0).cleanupExitCode()).isZero();
    assertThat(runs.get(1).cleanupExitCode()).isNull(); // no cleanup after a success
    assertThat(Files.readAllLines(killed)).containsExactly("killed x");
  }

  @Test
  void exportsTheScheduledTimeOfAScheduledInstance() throws Exception {
    WorkflowDefinition sched =
        WorkflowDefinition.builder("sched")
            .job(
                JobDefinition.builder("print")
                    .command("echo \"[${FLIPPER_SCHEDULED_TIME-unset}]\""))
            .build();
    engine.definitions().apply(List.of(sched));
    daemon(1, Duration.ofSeconds(5)).start();
    String scheduled =
        engine
            .instances()
            .start("sched", "scheduler", Map.of("scheduledTime", "2026-01-01T03:00:00Z"));
    String byHand = engine.instances().start("sched");

    awaitEnd("sched", scheduled);
    awaitEnd("sched", byHand);

    assertThat(Files.readString(dir.resolve("logs/sched/" + scheduled + "/print.1.stdout")))
        .isEqualTo("[2026-01-01T03:00:00Z]\n");
    assertThat(Files.readString(dir.resolve("logs/sched/" + byHand + "/print.1.stdout")))
        .isEqualTo("[unset]\n");
  }

  @Test
  void closeHandsBackAJobStillRunningAfterTheGrace() {
    WorkflowDefinition slow =
        WorkflowDefinition.builder("slow")
            .job(JobDefinition.builder("sleeper").command("sleep 60"))
            .build();
    daemon(1, Duration.ofMillis(200)).start();
    String instance = start(slow);
    await().atMost(Duration.ofSeconds(20)).until(() -> daemon.busy() == 1);

    daemon.close();

    JobDetail sleeper =
        engine.status().instance("slow", instance).orElseThrow().job("sleeper").orElseThrow();
    assertThat(sleeper.status()).isEqualTo(JobStatus.RUNNABLE);
    assertThat(sleeper.lastExecution().orElseThrow().endReason()).isEqualTo("handed back");
    assertThat(metrics.counter("workers.jobs.handedBack").getCount()).isEqualTo(1);
  }

  @Test
  void aSlotCarriesOnAfterAJobThatThrowsInTheWorkerItself() { // Pinball: the worker thread survives
    // run()'s exceptions
    WorkflowDefinition two =
        WorkflowDefinition.builder("two")
            .job(JobDefinition.builder("broken").command("true").priority(100))
            .job(JobDefinition.builder("fine").command("true").priority(1))
            .build();
    String instance = start(two);
    // A job token the worker cannot turn into an execution (a negative time-out, as a hand edit or
    // a bug could
    // leave it): the slot's run throws after the start is recorded, past every handler of the job's
    // own errors.
    String broken = "/runnable/two/" + instance + "/broken";
    Token token = master.query(Query.prefix(broken)).get(0);
    master.modify(
        ModifyParams.updating(
            token.withData(
                token
                    .data()
                    .replace("\"kind\":\"job\"", "\"kind\":\"job\",\"warnTimeoutMillis\":-1"))));
    daemon(1, Duration.ofSeconds(5)).start();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                engine
                        .status()
                        .instance("two", instance)
                        .orElseThrow()
                        .job("fine")
                        .orElseThrow()
                        .status()
                    == JobStatus.SUCCESS);

    // The one slot ran the next job after the exception. The broken job's start was recorded and
    // nothing
    // closes it: its lease ends and the next claim closes it as "lease lost", as EngineContractTest
    // shows.
    InstanceDetail detail = engine.status().instance("two", instance).orElseThrow();
    ExecutionDetail fine = detail.job("fine").orElseThrow().lastExecution().orElseThrow();
    ExecutionDetail brokenRun = detail.job("broken").orElseThrow().lastExecution().orElseThrow();
    assertThat(brokenRun.end()).isEmpty();
    assertThat(fine.worker()).isEqualTo(brokenRun.worker());
    assertThat(fine.start()).isAfterOrEqualTo(brokenRun.start());
    assertThat(fine.exitCode()).isZero();
  }

  @Test
  void isReadyOnlyBetweenStartAndCloseAndStartsOnce() {
    WorkerDaemon d = daemon(2, Duration.ofSeconds(1));
    assertThat(d.isReady()).isFalse();
    d.start();
    assertThat(d.isReady()).isTrue();
    assertThatThrownBy(d::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RUNNING");
    d.close();
    d.close();
    assertThat(d.isReady()).isFalse();
    assertThat(metrics.getGauges().get("workers.running").getValue()).isEqualTo(0);
  }
}
