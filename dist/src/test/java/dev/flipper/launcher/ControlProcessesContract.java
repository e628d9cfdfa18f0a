package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.control.ArchivedTokens;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.InstanceData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control operations on running instances with real processes: a master process, a worker
 * process with three slots and shell jobs, on the token database a subclass provides; each
 * operation through the CLI ({@code flipper workflow OP}) as an operator runs it. One cluster
 * serves the whole class (each test uses workflows of its own). Nothing else may change: a
 * bystander instance of another workflow runs through every test and must end untouched (one
 * successful execution per job), and the tokens of a witness workflow (an ended instance, an
 * archived one, its definition) and the global signals must be exactly as before. ({@code exit} and
 * {@code unexit} retire worker processes: {@link WorkerFleetContract} tests them.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("processes")
abstract class ControlProcessesContract {
  private static final Duration WITHIN = Duration.ofSeconds(60);

  private Path dir;
  private ProcessCluster cluster;
  private FlipperProcess workers;
  private WorkflowEngine engine;
  private Path config;
  private String bystander;
  private Map<String, Token> witnessBefore;
  private String out;
  private String err;

  /** The JDBC URL of an empty token database for this class. */
  abstract String tokenDatabase(Path dir);

  @BeforeAll
  void startMasterAndWorkers(@TempDir Path classDir) throws Exception {
    dir =
        classDir; // one directory for the class's cluster (a @TempDir field would be set per test)
    cluster = new ProcessCluster(dir, tokenDatabase(dir));
    cluster.startMaster(0);
    engine = cluster.engine();
    config = cluster.config();
    // A longer lease than the cluster's 3 s: renewals (every lease / 3) still come every 3 s, and a
    // frozen
    // worker (unabort) keeps its job for 9 s.
    workers = cluster.startWorkers("control", "workers.lease=9s");
    workers.awaitReady(List.of("workers"));
    WorkflowDefinition witness =
        WorkflowDefinition.builder("witness")
            .job(job("w", "echo FLIPPER:EVENT_ATTR:w=1"))
            .job(job("v", "true").needs("w"))
            .build();
    String archived = start(witness);
    awaitEnd("witness", archived);
    ok("archive", "-w", "witness", "-i", archived);
    engine.archiveDue(); // as a worker's archiver does, within a minute
    assertThat(engine.status().instance("witness", archived)).isEmpty();
    awaitEnd("witness", engine.instances().start("witness"));
  }

  @BeforeEach
  void startBystanderAndReadTheWitness() {
    bystander =
        start(
            WorkflowDefinition.builder("bystander")
                .job(job("x", "sleep 1"))
                .job(job("y", "sleep 1").needs("x"))
                .job(job("z", "true").needs("y"))
                .build());
    witnessBefore = witness();
  }

  @AfterAll
  void stopAll() {
    cluster.close();
  }

  /** Every token of the witness workflow, active and archived, and the global signals. */
  private Map<String, Token> witness() {
    Map<String, Token> all = new TreeMap<>();
    List<String> prefixes =
        List.of(
            TokenLayout.definition("witness"),
            TokenLayout.workflowPrefix("witness"),
            TokenLayout.RUNNABLE + "witness/",
            TokenLayout.ARCHIVE + "witness/",
            TokenLayout.workflowSignalPrefix("witness"),
            TokenLayout.SIGNALS + "instance/witness/",
            TokenLayout.globalSignalPrefix());
    for (List<Token> tokens :
        engine.master().query(prefixes.stream().map(Query::prefix).toList())) {
      tokens.forEach(t -> all.put(t.name(), t));
    }
    ArchivedTokens archive = ArchivedTokens.of(engine.master());
    for (String prefix : prefixes.subList(1, 4)) {
      archive.query(prefix).forEach(t -> all.put("archived " + t.name() + " v" + t.version(), t));
    }
    assertThat(all.keySet()).anyMatch(name -> name.startsWith("archived /workflow/witness/"));
    return all;
  }

  /**
   * The bystander ran as if nothing had happened; the witness's tokens and the global signals are
   * unchanged.
   */
  private void assertNothingElseChanged() {
    InstanceDetail end = awaitEnd("bystander", bystander);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.jobs()).allSatisfy(j -> assertThat(j.executions()).hasSize(1));
    assertThat(witness())
        .as("the witness workflow's tokens and the global signals")
        .isEqualTo(witnessBefore);
  }

  /**
   * Every token, active and archived, of one instance (by name; archived ones by name and version).
   */
  private Map<String, Token> instanceTokens(String workflow, String instance) {
    Map<String, Token> all = new TreeMap<>();
    List<String> prefixes =
        List.of(
            TokenLayout.instancePrefix(workflow, instance),
            TokenLayout.runnablePrefix(workflow, instance),
            TokenLayout.archive(workflow, instance),
            TokenLayout.instanceSignalPrefix(workflow, instance));
    for (List<Token> tokens :
        engine.master().query(prefixes.stream().map(Query::prefix).toList())) {
      tokens.forEach(t -> all.put(t.name(), t));
    }
    ArchivedTokens archive = ArchivedTokens.of(engine.master());
    for (String prefix : prefixes) {
      archive.query(prefix).forEach(t -> all.put("archived " + t.name() + " v" + t.version(), t));
    }
    return all;
  }

  /** The instance id a result printed ({@code " instance ID"}). */
  private String printedInstance() {
    return out.lines()
        .filter(l -> l.startsWith("  instance "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no instance in: " + out))
        .substring("  instance ".length());
  }

  /**
   * {@code flipper workflow ARGS} against the master; the exit code, output in {@link #out}/{@link
   * #err}.
   */
  private int cli(String... args) {
    StringWriter outText = new StringWriter();
    StringWriter errText = new StringWriter();
    List<String> full = new ArrayList<>(List.of("workflow"));
    full.addAll(List.of(args));
    full.addAll(
        List.of(
            "-c",
            config.toString(),
            "--set",
            "master.port=" + cluster.masterPort(),
            "--host",
            "127.0.0.1"));
    int code =
        Launcher.execute(
            full.toArray(String[]::new), new PrintWriter(outText), new PrintWriter(errText));
    out = outText.toString();
    err = errText.toString();
    return code;
  }

  private void ok(String... args) {
    assertThat(cli(args)).as(String.join(" ", args) + ": " + err).isZero();
  }

  private String start(WorkflowDefinition definition) {
    return cluster.start(definition);
  }

  private static JobDefinition.Builder job(String name, String command) {
    return JobDefinition.builder(name).command(command);
  }

  private InstanceDetail detail(String workflow, String instance) {
    return cluster.detail(workflow, instance);
  }

  private Optional<JobDetail> job(String workflow, String instance, String name) {
    return engine.status().instance(workflow, instance).flatMap(d -> d.job(name));
  }

  private InstanceDetail awaitEnd(String workflow, String instance) {
    return cluster.awaitEnd(workflow, instance, WITHIN);
  }

  private void awaitRunning(String workflow, String instance, String name) {
    await(name + " runs")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                job(workflow, instance, name)
                    .flatMap(JobDetail::lastExecution)
                    .map(ExecutionDetail::running)
                    .orElse(false));
  }

  private void awaitHeld(String workflow, String instance, String name, String owner) {
    await(name + " held " + owner)
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> job(workflow, instance, name).map(j -> owner.equals(j.heldBy())).orElse(false));
  }

  @Test
  void pauseKeepsTheRunningJobsResultAndStartsNothingUntilResume() {
    Path marker = dir.resolve("a.done");
    String inst =
        start(
            WorkflowDefinition.builder("p")
                .job(job("a", "sleep 2 && touch " + marker + " && echo FLIPPER:EVENT_ATTR:v=kept"))
                .job(job("b", "echo %(v)s").needs("a"))
                .build());
    awaitRunning("p", inst, "a");

    ok("pause", "-w", "p", "-i", inst);

    awaitHeld("p", inst, "b", "paused");
    JobDetail a = job("p", inst, "a").orElseThrow();
    assertThat(a.status()).as("the running job's result is kept").isEqualTo(JobStatus.SUCCESS);
    assertThat(a.executions()).hasSize(1);
    assertThat(marker).exists();
    assertThat(job("p", inst, "b").orElseThrow().executions()).as("nothing new started").isEmpty();

    ok("resume", "-w", "p", "-i", inst);

    assertThat(awaitEnd("p", inst).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(job("p", inst, "b").orElseThrow().lastExecution().orElseThrow().command())
        .isEqualTo("echo 'kept'"); // values are quoted for the shell
    assertNothingElseChanged();
  }

  @Test
  void drainAbortAndStopOnRunningInstances() throws Exception {
    String drained =
        start(
            WorkflowDefinition.builder("d")
                .job(job("a", "sleep 2"))
                .job(job("b", "true").needs("a"))
                .build());
    awaitRunning("d", drained, "a");
    ok("drain", "-w", "d");
    awaitHeld("d", drained, "b", "drained");
    assertThat(job("d", drained, "a").orElseThrow().status()).isEqualTo(JobStatus.SUCCESS);
    ok("undrain", "-w", "d");
    assertThat(awaitEnd("d", drained).summary().status()).isEqualTo(InstanceStatus.SUCCESS);

    Path pid = dir.resolve("long.pid");
    String aborted =
        start(
            WorkflowDefinition.builder("ab")
                .job(job("long", "echo $$ > " + pid + "; exec sleep 300"))
                .job(job("after", "true").needs("long"))
                .build());
    awaitRunning("ab", aborted, "long");
    assertThat(cli("abort", "-w", "ab", "-i", aborted)).as("no terminal, no --force").isEqualTo(1);
    ok("abort", "-w", "ab", "-i", aborted, "--force");
    await("ab ends or is archived")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                engine
                    .status()
                    .instance("ab", aborted)
                    .map(d -> d.summary().status() == InstanceStatus.ABORTED)
                    .orElse(true));
    long sleeper = Long.parseLong(Files.readString(pid).strip());
    await("the aborted job's process is killed")
        .atMost(WITHIN)
        .until(
            () ->
                ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false)
                    == Boolean.FALSE);

    Path stopPid = dir.resolve("stop.pid");
    String stopped =
        start(
            WorkflowDefinition.builder("st")
                .job(job("long", "echo $$ > " + stopPid + "; exec sleep 300"))
                .build());
    awaitRunning("st", stopped, "long");
    ok("stop", "-w", "st", "-i", stopped, "--force");
    assertThat(engine.status().instance("st", stopped)).isEmpty();
    long stopSleeper = Long.parseLong(Files.readString(stopPid).strip());
    await("the stopped job's process is killed")
        .atMost(WITHIN)
        .until(
            () ->
                ProcessHandle.of(stopSleeper).map(ProcessHandle::isAlive).orElse(false)
                    == Boolean.FALSE);
    assertNothingElseChanged();
  }

  @Test
  void retryRedoPoisonDisableReloadAndArchive() throws Exception {
    Path counter = dir.resolve("count");
    String failing =
        start(
            WorkflowDefinition.builder("r")
                .job(
                    job(
                        "a",
                        "n=$(cat "
                            + counter
                            + " 2>/dev/null || echo 0); echo $((n+1)) > "
                            + counter
                            + "; [ $n -ge 1 ] && echo FLIPPER:EVENT_ATTR:v=1"))
                .job(job("b", "sleep 1").needs("a"))
                .job(job("c", "echo c").needs("b"))
                .build());
    assertThat(awaitEnd("r", failing).summary().status()).isEqualTo(InstanceStatus.FAILURE);
    ok("retry", "-w", "r", "-i", failing);
    assertThat(awaitEnd("r", failing).summary().status()).isEqualTo(InstanceStatus.SUCCESS);

    ok("redo", "-w", "r", "-i", failing, "-j", "c", "-e", "1", "--force");
    await("c ran twice")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                detail("r", failing).summary().status() == InstanceStatus.SUCCESS
                    && job("r", failing, "c").orElseThrow().executions().size() == 2);

    ok("poison", "-w", "r", "-i", failing, "-j", "b", "--force");
    await("b and c ran again")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                detail("r", failing).summary().status() == InstanceStatus.SUCCESS
                    && job("r", failing, "c").orElseThrow().executions().size() == 3);
    InstanceDetail poisoned = detail("r", failing);
    assertThat(poisoned.job("a").orElseThrow().executions())
        .as("a is upstream: not run again")
        .hasSize(2);
    assertThat(poisoned.job("b").orElseThrow().executions()).hasSize(2);

    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("e")
                    .job(job("a", "sleep 2"))
                    .job(job("b", "echo old").needs("a"))
                    .job(job("c", "echo c").needs("b"))
                    .job(job("d", "echo d").needs("b"))
                    .build()));
    ok("start", "-w", "e");
    String edited = out.strip();
    awaitRunning("e", edited, "a");
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("e")
                    .job(job("a", "sleep 2"))
                    .job(job("b", "echo new").needs("a"))
                    .job(job("c", "echo c").needs("b"))
                    .job(job("d", "echo d").needs("b"))
                    .build()));
    ok("reload", "-w", "e", "-i", edited, "-j", "b", "--force");
    ok("disable", "-w", "e", "-i", edited, "-j", "c,d", "--force");
    ok("enable", "-w", "e", "-i", edited, "-j", "d");
    InstanceDetail end = awaitEnd("e", edited);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("b").orElseThrow().lastExecution().orElseThrow().command())
        .isEqualTo("echo new");
    assertThat(end.job("c").orElseThrow().status()).isEqualTo(JobStatus.DISABLED);
    assertThat(end.job("d").orElseThrow().lastExecution().orElseThrow().command())
        .isEqualTo("echo d");

    ok("archive", "-w", "e", "-i", edited);
    engine.archiveDue(); // as a worker's archiver does, within a minute
    assertThat(engine.status().instance("e", edited)).isEmpty();
    assertNothingElseChanged();
  }

  @Test
  void retryOfAnArchivedInstanceRunsACopyWithItsEvents() {
    String inst =
        start(
            WorkflowDefinition.builder("ar")
                .job(job("a", "echo FLIPPER:EVENT_ATTR:v=restored"))
                .job(job("b", "echo %(v)s; exit 1").needs("a"))
                .build());
    ok("archive", "-w", "ar", "-i", inst);
    // Archived when it ends: by a worker's archiver within a minute, or by the test's own call
    // sooner.
    await("ar archived")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> engine.archiveDue() >= 0 && engine.status().instance("ar", inst).isEmpty());

    int code =
        cli("retry", "-w", "ar", "-i", inst); // the running master serves its archive, on H2 too

    assertThat(code).as(err).isZero();
    String copy = printedInstance();
    InstanceDetail end = awaitEnd("ar", copy);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    assertThat(end.job("a").orElseThrow().executions())
        .as("a succeeded before: kept, not run")
        .hasSize(1);
    assertThat(end.job("b").orElseThrow().lastExecution().orElseThrow().command())
        .as("the failed job ran with its events")
        .isEqualTo("echo 'restored'; exit 1");
    assertNothingElseChanged();
  }

  @Test
  void unabortBeforeTheWorkerNoticesLetsTheInstanceGoOn() throws Exception {
    Path go = dir.resolve("unabort.go");
    String inst =
        start(
            WorkflowDefinition.builder("un")
                .job(job("long", "while [ ! -f " + go + " ]; do sleep 0.1; done"))
                .job(job("after", "true").needs("long"))
                .build());
    awaitRunning("un", inst, "long");
    // Frozen, the worker cannot renew the lease and see the ABORT (it renews every 3 s, the lease
    // is 9 s): the
    // race an operator's unabort wins when it comes before the worker's next renewal, made certain.
    workers.freeze(true);
    try {
      ok("abort", "-w", "un", "-i", inst, "--force");
      assertThat(out).contains("ends when its running jobs are killed");
      assertThat(engine.signals("un", inst)).contains(SignalAction.ABORT);

      ok("unabort", "-w", "un", "-i", inst);

      assertThat(out).contains("ABORT signal removed");
      assertThat(engine.signals("un", inst)).doesNotContain(SignalAction.ABORT);
      ok("unabort", "-w", "un", "-i", inst);
      assertThat(out).contains("nothing changed");
    } finally {
      workers.freeze(false);
    }
    Files.createFile(go);
    InstanceDetail end = awaitEnd("un", inst);
    assertThat(end.summary().status())
        .as("not aborted: it went on")
        .isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("long").orElseThrow().executions()).as("never killed").hasSize(1);
    assertThat(end.job("after").orElseThrow().executions()).hasSize(1);
    assertNothingElseChanged();
  }

  @Test
  void unarchiveLetsAnInstanceThatEndsLaterWaitForTheArchiveDelay() {
    Path go = dir.resolve("unarchive.go");
    engine
        .definitions()
        .apply(List.of(WorkflowDefinition.builder("ua").job(job("a", "true")).build()));
    ok("archive", "-w", "ua");
    String early = engine.instances().start("ua");
    await("ua ends (a worker's archiver may take it at once)")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                engine
                    .status()
                    .instance("ua", early)
                    .map(d -> d.summary().status() != InstanceStatus.RUNNING)
                    .orElse(true));
    engine.archiveDue();
    assertThat(engine.status().instance("ua", early))
        .as("ended under ARCHIVE: archived at once")
        .isEmpty();
    String inst =
        start(
            WorkflowDefinition.builder("ua")
                .job(job("a", "while [ ! -f " + go + " ]; do sleep 0.1; done"))
                .build());
    awaitRunning("ua", inst, "a");

    ok("unarchive", "-w", "ua");

    assertThat(out).contains("ARCHIVE signal removed");
    assertThat(engine.signals("ua", inst)).doesNotContain(SignalAction.ARCHIVE);
    try {
      Files.createFile(go);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    assertThat(awaitEnd("ua", inst).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    engine.archiveDue();
    assertThat(engine.status().instance("ua", inst))
        .as("due only after the archive delay: still active")
        .isPresent();
    assertNothingElseChanged();
  }

  @Test
  void cleanupDeletesOldArchivedInstancesAndTheirLogsOnTheWorker() throws Exception {
    WorkflowDefinition definition =
        WorkflowDefinition.builder("cl").job(job("a", "echo hello")).build();
    String old = start(definition);
    awaitEnd("cl", old);
    String young = start(definition);
    awaitEnd("cl", young);
    // Ended 30 days ago: the record's times rewritten through the master, as if the instance had
    // run then.
    String recordName = TokenLayout.instanceRecord("cl", old);
    Token record =
        engine.master().query(Query.prefix(recordName)).stream()
            .filter(t -> t.name().equals(recordName))
            .findFirst()
            .orElseThrow();
    InstanceData data = Json.read(record, InstanceData.class);
    long shift = Duration.ofDays(30).toMillis();
    data.startMillis -= shift;
    data.endMillis -= shift;
    engine.master().modify(new ModifyParams(List.of(record.withData(Json.write(data))), List.of()));
    ok("archive", "-w", "cl");
    engine.archiveDue();
    assertThat(engine.status().instances("cl")).isEmpty();
    Path logs = dir.resolve("logs-control");
    List<Path> oldLogs = logFiles(logs.resolve("cl").resolve(old));
    List<Path> youngLogs = logFiles(logs.resolve("cl").resolve(young));
    assertThat(oldLogs).as("stdout and stderr of a").hasSize(2);
    assertThat(youngLogs).hasSize(2);
    Map<String, Token> youngBefore = instanceTokens("cl", young);
    assertThat(instanceTokens("cl", old)).isNotEmpty();

    ok("cleanup", "--force");

    assertThat(out)
        .contains("deleted " + TokenLayout.instancePrefix("cl", old), "deleted 2 of 2 log files");
    assertThat(instanceTokens("cl", old)).as("the old instance's archived tokens").isEmpty();
    assertThat(oldLogs).allSatisfy(f -> assertThat(f).doesNotExist());
    assertThat(instanceTokens("cl", young)).as("archived 0 days ago: kept").isEqualTo(youngBefore);
    assertThat(youngLogs).allSatisfy(f -> assertThat(f).exists());
    ok("cleanup", "--force");
    assertThat(out).startsWith("cleanup global: nothing changed");
    assertThat(cli("cleanup", "--age", "6", "--force")).isEqualTo(1);
    assertThat(err).contains("use at least 7d");
    assertNothingElseChanged();
  }

  private static List<Path> logFiles(Path instanceDir) throws Exception {
    try (Stream<Path> files = Files.list(instanceDir)) {
      return files.sorted().toList();
    }
  }

  @Test
  void retryOfAnAbortedInstanceRunsTheAbortedJobsAgain() throws Exception {
    Path go = dir.resolve("retry-aborted.go");
    String inst =
        start(
            WorkflowDefinition.builder("ra")
                .job(job("long", "while [ ! -f " + go + " ]; do sleep 0.1; done"))
                .job(job("after", "true").needs("long"))
                .build());
    awaitRunning("ra", inst, "long");
    ok("abort", "-w", "ra", "-i", inst, "--force");
    await("ra aborted")
        .atMost(WITHIN)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                engine
                    .status()
                    .instance("ra", inst)
                    .map(d -> d.summary().status() == InstanceStatus.ABORTED)
                    .orElse(true));
    Files.createFile(go);

    ok("retry", "-w", "ra", "-i", inst);

    // Workers archive an aborted instance within a minute; if that came first, retry made a copy of
    // it.
    String retried = printedInstance();
    InstanceDetail end = awaitEnd("ra", retried);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<ExecutionDetail> runs = end.job("long").orElseThrow().executions();
    assertThat(runs).as("killed, then run again").hasSize(2);
    assertThat(runs.get(0).exitCode()).isNotZero();
    assertThat(runs.get(1).exitCode()).isZero();
    assertThat(end.job("after").orElseThrow().executions()).hasSize(1);
    assertNothingElseChanged();
  }

  @Test
  void poisonOfAnArchivedInstanceRunsOnlyThoseJobsInANewInstance() {
    String inst =
        start(
            WorkflowDefinition.builder("pa")
                .job(job("a", "echo FLIPPER:EVENT_ATTR:v=first"))
                .job(job("b", "echo %(v)s").needs("a"))
                .job(job("c", "true").needs("b"))
                .build());
    awaitEnd("pa", inst);
    ok("archive", "-w", "pa", "-i", inst);
    engine.archiveDue();
    assertThat(engine.status().instance("pa", inst)).isEmpty();
    Map<String, Token> archived = instanceTokens("pa", inst);

    ok("poison", "-w", "pa", "-i", inst, "-j", "b", "--force");

    String copy = printedInstance();
    assertThat(copy).isNotEqualTo(inst);
    InstanceDetail end = awaitEnd("pa", copy);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("a").orElseThrow().executions())
        .as("not poisoned: its history only")
        .hasSize(1);
    assertThat(end.job("b").orElseThrow().executions()).hasSize(2);
    assertThat(end.job("b").orElseThrow().lastExecution().orElseThrow().command())
        .as("with the event it had")
        .isEqualTo("echo 'first'");
    assertThat(end.job("c").orElseThrow().executions()).hasSize(2);
    assertThat(instanceTokens("pa", inst)).as("the archived instance").isEqualTo(archived);
    assertNothingElseChanged();
  }

  @Test
  void poisonWithoutAnInstanceRunsOnlyThoseJobsInANewInstanceOfTheDefinition() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("pn")
                    .job(job("a", "true"))
                    .job(job("b", "true").needs("a"))
                    .job(job("c", "true").needs("b"))
                    .build()));

    ok("poison", "-w", "pn", "-j", "b", "--force");

    String inst = printedInstance();
    InstanceDetail end = awaitEnd("pn", inst);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("a").orElseThrow().executions()).as("upstream of b: not run").isEmpty();
    assertThat(end.job("b").orElseThrow().executions()).hasSize(1);
    assertThat(end.job("c").orElseThrow().executions()).hasSize(1);
    assertThat(engine.status().instances("pn")).as("one instance, nothing else started").hasSize(1);
    assertNothingElseChanged();
  }
}
