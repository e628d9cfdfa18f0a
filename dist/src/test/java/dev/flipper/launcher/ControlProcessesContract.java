package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.WorkflowEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control operations on running instances with real processes: a master process, a worker process with
 * three slots and shell jobs, on the token database a subclass provides; each operation through the CLI
 * ({@code flipper workflow OP}) as an operator runs it. A bystander instance of another workflow runs through
 * every test and must end untouched: one successful execution per job.
 */
abstract class ControlProcessesContract {
  private static final Duration WITHIN = Duration.ofSeconds(60);

  @TempDir Path dir;
  private ProcessCluster cluster;
  private WorkflowEngine engine;
  private Path config;
  private String bystander;
  private String out;
  private String err;

  /** The JDBC URL of an empty token database for this test. */
  abstract String tokenDatabase(Path dir);

  @BeforeEach
  void startMasterAndWorkers() throws Exception {
    cluster = new ProcessCluster(dir, tokenDatabase(dir));
    cluster.startMaster(0);
    engine = cluster.engine();
    config = cluster.config();
    cluster.startWorkers("control").awaitReady(List.of("workers"));
    bystander = start(WorkflowDefinition.builder("bystander")
        .job(job("x", "sleep 1"))
        .job(job("y", "sleep 1").needs("x"))
        .job(job("z", "true").needs("y")).build());
  }

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  /** The bystander ran as if nothing had happened. */
  private void assertBystanderUntouched() {
    InstanceDetail end = awaitEnd("bystander", bystander);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.jobs()).allSatisfy(j -> assertThat(j.executions()).hasSize(1));
  }

  /** {@code flipper workflow ARGS} against the master; the exit code, output in {@link #out}/{@link #err}. */
  private int cli(String... args) {
    StringWriter outText = new StringWriter();
    StringWriter errText = new StringWriter();
    List<String> full = new ArrayList<>(List.of("workflow"));
    full.addAll(List.of(args));
    full.addAll(List.of("-c", config.toString(), "--set", "master.port=" + cluster.masterPort(),
        "--host", "127.0.0.1"));
    int code = Launcher.execute(full.toArray(String[]::new), new PrintWriter(outText), new PrintWriter(errText));
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
    await(name + " runs").atMost(WITHIN).pollInterval(Duration.ofMillis(100)).until(() -> job(workflow, instance,
        name).flatMap(JobDetail::lastExecution).map(ExecutionDetail::running).orElse(false));
  }

  private void awaitHeld(String workflow, String instance, String name, String owner) {
    await(name + " held " + owner).atMost(WITHIN).pollInterval(Duration.ofMillis(100)).until(() -> job(workflow,
        instance, name).map(j -> owner.equals(j.heldBy())).orElse(false));
  }

  @Test
  void pauseKeepsTheRunningJobsResultAndStartsNothingUntilResume() {
    Path marker = dir.resolve("a.done");
    String inst = start(WorkflowDefinition.builder("p")
        .job(job("a", "sleep 2 && touch " + marker + " && echo FLIPPER:EVENT_ATTR:v=kept"))
        .job(job("b", "echo %(v)s").needs("a")).build());
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
    assertThat(job("p", inst, "b").orElseThrow().lastExecution().orElseThrow().command()).isEqualTo("echo kept");
    assertBystanderUntouched();
  }

  @Test
  void drainAbortAndStopOnRunningInstances() throws Exception {
    String drained = start(WorkflowDefinition.builder("d")
        .job(job("a", "sleep 2")).job(job("b", "true").needs("a")).build());
    awaitRunning("d", drained, "a");
    ok("drain", "-w", "d");
    awaitHeld("d", drained, "b", "drained");
    assertThat(job("d", drained, "a").orElseThrow().status()).isEqualTo(JobStatus.SUCCESS);
    ok("undrain", "-w", "d");
    assertThat(awaitEnd("d", drained).summary().status()).isEqualTo(InstanceStatus.SUCCESS);

    Path pid = dir.resolve("long.pid");
    String aborted = start(WorkflowDefinition.builder("ab")
        .job(job("long", "echo $$ > " + pid + "; exec sleep 300")).job(job("after", "true").needs("long")).build());
    awaitRunning("ab", aborted, "long");
    assertThat(cli("abort", "-w", "ab", "-i", aborted)).as("no terminal, no --force").isEqualTo(1);
    ok("abort", "-w", "ab", "-i", aborted, "--force");
    await("ab ends or is archived").atMost(WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> engine.status()
        .instance("ab", aborted).map(d -> d.summary().status() == InstanceStatus.ABORTED).orElse(true));
    long sleeper = Long.parseLong(Files.readString(pid).strip());
    await("the aborted job's process is killed").atMost(WITHIN)
        .until(() -> ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE);

    Path stopPid = dir.resolve("stop.pid");
    String stopped = start(WorkflowDefinition.builder("st")
        .job(job("long", "echo $$ > " + stopPid + "; exec sleep 300")).build());
    awaitRunning("st", stopped, "long");
    ok("stop", "-w", "st", "-i", stopped, "--force");
    assertThat(engine.status().instance("st", stopped)).isEmpty();
    long stopSleeper = Long.parseLong(Files.readString(stopPid).strip());
    await("the stopped job's process is killed").atMost(WITHIN)
        .until(() -> ProcessHandle.of(stopSleeper).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE);
    assertBystanderUntouched();
  }

  @Test
  void retryRedoPoisonDisableReloadAndArchive() throws Exception {
    Path counter = dir.resolve("count");
    String failing = start(WorkflowDefinition.builder("r")
        .job(job("a", "n=$(cat " + counter + " 2>/dev/null || echo 0); echo $((n+1)) > " + counter
            + "; [ $n -ge 1 ] && echo FLIPPER:EVENT_ATTR:v=1"))
        .job(job("b", "sleep 1").needs("a"))
        .job(job("c", "echo c").needs("b")).build());
    assertThat(awaitEnd("r", failing).summary().status()).isEqualTo(InstanceStatus.FAILURE);
    ok("retry", "-w", "r", "-i", failing);
    assertThat(awaitEnd("r", failing).summary().status()).isEqualTo(InstanceStatus.SUCCESS);

    ok("redo", "-w", "r", "-i", failing, "-j", "c", "-e", "1", "--force");
    await("c ran twice").atMost(WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> detail("r", failing)
        .summary().status() == InstanceStatus.SUCCESS && job("r", failing, "c").orElseThrow().executions().size() == 2);

    ok("poison", "-w", "r", "-i", failing, "-j", "b", "--force");
    await("b and c ran again").atMost(WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> detail("r", failing)
        .summary().status() == InstanceStatus.SUCCESS && job("r", failing, "c").orElseThrow().executions().size() == 3);
    InstanceDetail poisoned = detail("r", failing);
    assertThat(poisoned.job("a").orElseThrow().executions()).as("a is upstream: not run again").hasSize(2);
    assertThat(poisoned.job("b").orElseThrow().executions()).hasSize(2);

    engine.definitions().apply(List.of(WorkflowDefinition.builder("e")
        .job(job("a", "sleep 2")).job(job("b", "echo old").needs("a"))
        .job(job("c", "echo c").needs("b")).job(job("d", "echo d").needs("b")).build()));
    ok("start", "-w", "e");
    String edited = out.strip();
    awaitRunning("e", edited, "a");
    engine.definitions().apply(List.of(WorkflowDefinition.builder("e")
        .job(job("a", "sleep 2")).job(job("b", "echo new").needs("a"))
        .job(job("c", "echo c").needs("b")).job(job("d", "echo d").needs("b")).build()));
    ok("reload", "-w", "e", "-i", edited, "-j", "b", "--force");
    ok("disable", "-w", "e", "-i", edited, "-j", "c,d", "--force");
    ok("enable", "-w", "e", "-i", edited, "-j", "d");
    InstanceDetail end = awaitEnd("e", edited);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("b").orElseThrow().lastExecution().orElseThrow().command()).isEqualTo("echo new");
    assertThat(end.job("c").orElseThrow().status()).isEqualTo(JobStatus.DISABLED);
    assertThat(end.job("d").orElseThrow().lastExecution().orElseThrow().command()).isEqualTo("echo d");

    ok("archive", "-w", "e", "-i", edited);
    await("e archived").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
        .until(() -> engine.status().instance("e", edited).isEmpty());
    assertBystanderUntouched();
  }

  @Test
  void retryOfAnArchivedInstanceRunsACopyWithItsEvents() {
    String inst = start(WorkflowDefinition.builder("ar")
        .job(job("a", "echo FLIPPER:EVENT_ATTR:v=restored"))
        .job(job("b", "echo %(v)s; exit 1").needs("a")).build());
    ok("archive", "-w", "ar", "-i", inst);
    await("ar archived").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
        .until(() -> engine.status().instance("ar", inst).isEmpty());

    int code = cli("retry", "-w", "ar", "-i", inst); // the running master serves its archive, on H2 too

    assertThat(code).as(err).isZero();
    String copy = out.lines().filter(l -> l.startsWith("  instance ")).findFirst().orElseThrow().substring(11);
    InstanceDetail end = awaitEnd("ar", copy);
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    assertThat(end.job("a").orElseThrow().executions()).as("a succeeded before: kept, not run").hasSize(1);
    assertThat(end.job("b").orElseThrow().lastExecution().orElseThrow().command())
        .as("the failed job ran with its events").isEqualTo("echo restored; exit 1");
    assertBystanderUntouched();
  }
}
