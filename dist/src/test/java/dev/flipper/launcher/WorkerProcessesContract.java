package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance of the workers with real processes: a master process, worker processes ({@code -m
 * workers}) and shell jobs, on the token database a subclass provides. Short leases (3 s) keep
 * every test bounded.
 */
@Tag("processes")
abstract class WorkerProcessesContract {
  @TempDir Path dir;
  private ProcessCluster cluster;

  /** The JDBC URL of an empty token database for this test. */
  abstract String tokenDatabase(Path dir);

  @BeforeEach
  void cluster() {
    cluster = new ProcessCluster(dir, tokenDatabase(dir));
  }

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  private FlipperProcess startMaster(int port) throws Exception {
    return cluster.startMaster(port);
  }

  private FlipperProcess startWorkers(String name, String... sets) throws Exception {
    return cluster.startWorkers(name, sets);
  }

  private String start(WorkflowDefinition definition) {
    return cluster.start(definition);
  }

  private InstanceDetail awaitEnd(String workflow, String instance, Duration within) {
    return cluster.awaitEnd(workflow, instance, within);
  }

  private InstanceDetail detail(String workflow, String instance) {
    return cluster.detail(workflow, instance);
  }

  private static JobDefinition.Builder job(String name, String command) {
    return JobDefinition.builder(name).command(command);
  }

  /** A command that fails until its {@code n}th run (counted in a file), then succeeds. */
  private String succeedsOnRun(int n, String counter, String then) {
    Path file = dir.resolve(counter);
    return "n=$(cat "
        + file
        + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > "
        + file
        + "; [ $n -ge "
        + n
        + " ] && "
        + then;
  }

  @Test
  void diamondRetriesConditionTimeoutAndNoJobRunsTwiceOnTwoWorkerProcesses() throws Exception {
    startMaster(0);
    FlipperProcess workersA = startWorkers("a");
    FlipperProcess workersB = startWorkers("b");
    workersA.awaitReady(List.of("workers"));
    workersB.awaitReady(List.of("workers"));

    Path joined = dir.resolve("join.out");
    String data =
        start(
            WorkflowDefinition.builder("data")
                .job(job("split", "echo FLIPPER:EVENT_ATTR:day=d1"))
                .job(
                    job(
                            "left",
                            succeedsOnRun(
                                3, "left.count", "echo FLIPPER:EVENT_ATTR:part=L-%(day)s"))
                        .needs("split")
                        .maxAttempts(3)
                        .retryDelay(Duration.ofSeconds(1)))
                .job(job("right", "echo FLIPPER:EVENT_ATTR:part=R-%(day)s").needs("split"))
                .job(
                    job("sensor", succeedsOnRun(3, "sensor.count", "true"))
                        .condition(true)
                        .maxAttempts(5)
                        .retryDelay(Duration.ofSeconds(1)))
                .job(job("join", "echo %(part)s > " + joined).needs("left", "right", "sensor"))
                .build());
    Path grandchild = dir.resolve("grandchild.pid");
    String timeout =
        start(
            WorkflowDefinition.builder("timeout")
                .job(
                    job(
                            "spawn",
                            "sh -c 'sleep 300 & echo $! > "
                                + grandchild
                                + "; wait'; echo not reached")
                        .abortTimeout(Duration.ofSeconds(2)))
                .build());
    Path ran = dir.resolve("ran.txt");
    WorkflowDefinition.Builder many = WorkflowDefinition.builder("exclusive");
    for (int i = 0; i < 30; i++) {
      // >> opens with O_APPEND: each line lands whole even when both worker processes write at
      // once.
      many.job(job(String.format("j%02d", i), "echo $FLIPPER_JOB >> " + ran + " && sleep 0.1"));
    }
    String exclusive = start(many.build());

    InstanceDetail dataEnd = awaitEnd("data", data, Duration.ofSeconds(60));
    assertThat(dataEnd.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(Files.readString(joined).strip()).isIn("L-d1,R-d1", "R-d1,L-d1");
    List<ExecutionDetail> left = dataEnd.job("left").orElseThrow().executions();
    assertThat(left).extracting(ExecutionDetail::exitCode).containsExactly(1, 1, 0);
    for (int i = 1; i < left.size(); i++) {
      // the retry delay separates the attempts
      assertThat(left.get(i).start())
          .isAfterOrEqualTo(left.get(i - 1).end().orElseThrow().plusMillis(900));
    }
    assertThat(dataEnd.job("sensor").orElseThrow().executions())
        .extracting(ExecutionDetail::exitCode)
        .containsExactly(1, 1, 0);

    InstanceDetail timeoutEnd = awaitEnd("timeout", timeout, Duration.ofSeconds(30));
    assertThat(timeoutEnd.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    ExecutionDetail spawn = timeoutEnd.job("spawn").orElseThrow().lastExecution().orElseThrow();
    assertThat(spawn.endReason()).isEqualTo("abort timeout");
    long pid = Long.parseLong(Files.readString(grandchild).strip());
    await("grandchild " + pid + " killed")
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE);

    InstanceDetail exclusiveEnd = awaitEnd("exclusive", exclusive, Duration.ofSeconds(60));
    assertThat(exclusiveEnd.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<String> lines = Files.readAllLines(ran);
    assertThat(lines).hasSize(30).doesNotHaveDuplicates();
    assertThat(
            new HashSet<>(
                exclusiveEnd.jobs().stream()
                    .flatMap(j -> j.executions().stream())
                    .map(e -> e.worker().replaceAll("-\\d+-[0-9a-f]{6}$", ""))
                    .toList()))
        .as("both worker processes ran jobs")
        .hasSize(2);

    // The logs, read through the URL in the record: the CLI and the tail endpoint.
    ExecutionDetail split = dataEnd.job("split").orElseThrow().lastExecution().orElseThrow();
    assertThat(split.logs().get("stdout"))
        .startsWith("http://127.0.0.1:")
        .contains("/logs/data/" + data + "/split.1.stdout");
    assertThat(cluster.workflowCli("logs", "-w", "data", "-i", data, "-j", "split"))
        .isEqualTo("FLIPPER:EVENT_ATTR:day=d1\n");
    HttpResponse<String> tail =
        FlipperProcess.get(split.logs().get("stdout") + "?offset=-3&max=10");
    assertThat(tail.body()).isEqualTo("d1\n");
    assertThat(tail.headers().firstValue("X-Log-Next-Offset")).contains("26");

    workersA.sigterm();
    workersB.sigterm();
    assertThat(workersA.awaitExit(Duration.ofSeconds(30))).isZero();
    assertThat(workersB.awaitExit(Duration.ofSeconds(30))).isZero();
  }

  @Test
  void aJobOfAWorkerKilledMidJobIsReclaimedAfterItsLeaseAndSucceedsOnRetry() throws Exception {
    startMaster(0);
    FlipperProcess doomed = startWorkers("doomed", "workers.count=1");
    String instance =
        start(
            WorkflowDefinition.builder("victim")
                // 3 attempts: on a loaded machine the doomed worker may already lose a lease on its
                // own before the kill
                .job(job("slow", "sleep 4 && echo done").maxAttempts(3))
                .build());
    await("slow runs")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                detail("victim", instance)
                    .job("slow")
                    .flatMap(JobDetail::lastExecution)
                    .map(ExecutionDetail::running)
                    .orElse(false));

    doomed.kill();
    startWorkers("rescuer");

    InstanceDetail end = awaitEnd("victim", instance, Duration.ofSeconds(60));
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<ExecutionDetail> executions = end.job("slow").orElseThrow().executions();
    ExecutionDetail last = executions.get(executions.size() - 1);
    assertThat(executions.subList(0, executions.size() - 1))
        .isNotEmpty()
        .allSatisfy(
            e -> {
              assertThat(e.endReason()).isEqualTo("lease lost");
              assertThat(e.exitCode()).isNull();
            });
    assertThat(last.exitCode()).isZero();
    assertThat(process(last.worker()))
        .as("the rescuer ran it")
        .isNotEqualTo(process(executions.get(0).worker()));
  }

  @Test
  void aKilledWorkersProcessTakesItsJobWithItBeforeTheRerunStarts() throws Exception {
    killWorkersProcessMidJob(false);
  }

  @Test
  void aKilledWorkersProcessTakesItsJobWithItWhileAnotherWorkersProcessWaits() throws Exception {
    killWorkersProcessMidJob(true);
  }

  /**
   * A 60 s job whose workers process is killed with SIGKILL: the job's shell and its background
   * child are gone within 5 s (the job's supervisor saw its pipe to the worker close), and the
   * re-run on the other workers process finds neither of them running when it starts (it looks in
   * /proc and writes "overlap" for each it finds).
   */
  private void killWorkersProcessMidJob(boolean rescuerStartedBeforeTheKill) throws Exception {
    startMaster(0);
    FlipperProcess doomed = startWorkers("doomed", "workers.count=1");
    Path runs = dir.resolve("runs.txt");
    Path count = dir.resolve("count.txt");
    Path first = dir.resolve("first.pids");
    String command =
        "n=$(cat "
            + count
            + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > "
            + count
            + "; "
            + "if [ $n -eq 1 ]; then sleep 60 & echo $$ $! > "
            + first
            + ".tmp; mv "
            + first
            + ".tmp "
            + first
            + "; wait $!; else for p in $(cat "
            + first
            + "); do if [ -r /proc/$p/stat ] && ! grep -q ') Z ' /proc/$p/stat;"
            + " then echo overlap $p >> "
            + runs
            + "; fi; done; echo run $n >> "
            + runs
            + "; fi";
    String instance =
        start(
            WorkflowDefinition.builder("killed").job(job("long", command).maxAttempts(3)).build());
    await("the first run started")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> Files.exists(first));
    List<Long> pids =
        java.util.Arrays.stream(Files.readString(first).strip().split(" "))
            .map(Long::parseLong)
            .toList();
    if (rescuerStartedBeforeTheKill) {
      startWorkers("rescuer").awaitReady(List.of("workers"));
    }

    doomed.kill();
    await("the first run's shell and its child are gone")
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> pids.stream().noneMatch(WorkerProcessesContract::running));
    if (!rescuerStartedBeforeTheKill) {
      startWorkers("rescuer");
    }

    InstanceDetail end = awaitEnd("killed", instance, Duration.ofSeconds(60));
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(Files.readAllLines(runs))
        .as("what the re-run found")
        .singleElement()
        .asString()
        .startsWith("run ");
  }

  /**
   * Whether the process exists and is not a zombie (an orphan's zombie waits for a reaper that may
   * not come).
   */
  private static boolean running(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.exists(stat)) {
      return false;
    }
    try {
      String s = Files.readString(stat);
      return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    } catch (java.io.IOException e) {
      return false; // gone between the two reads
    }
  }

  @Test
  void twoWorkerProcessesMailAFailureAndTheInstanceEndOnce() throws Exception {
    GreenMail smtp =
        new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
    smtp.start();
    try {
      startMaster(0);
      String[] mail = {
        "email.enabled=true",
        "email.smtpHost=127.0.0.1",
        "email.smtpPort=" + smtp.getSmtp().getPort(),
        "email.from=flipper@example.com",
        "ui.baseUrl=http://ui.test:8080"
      };
      startWorkers("a", mail).awaitReady(List.of("workers"));
      startWorkers("b", mail).awaitReady(List.of("workers"));
      String instance =
          start(
              WorkflowDefinition.builder("mailed")
                  .emails("team@example.com")
                  .job(job("first", "true"))
                  .job(job("second", "exit 5").needs("first").emails("oncall@example.com"))
                  .build());
      awaitEnd("mailed", instance, Duration.ofSeconds(60));

      String failure = "Workflow mailed's job second finished with exit code 5";
      String end = "FAILURE for workflow mailed";
      await("mails")
          .atMost(Duration.ofSeconds(30))
          .until(() -> subjects(smtp).containsAll(List.of(failure, end)));
      assertThat(subjects(smtp))
          .containsExactlyInAnyOrder(failure, end); // once each, from one of the processes
      for (jakarta.mail.internet.MimeMessage message : smtp.getReceivedMessages()) {
        if (message.getSubject().equals(end)) {
          assertThat(message.getAllRecipients())
              .extracting(Object::toString)
              .containsExactly("team@example.com");
          assertThat(
                  (String)
                      ((jakarta.mail.internet.MimeMultipart) message.getContent())
                          .getBodyPart(0)
                          .getContent())
              .contains(
                  "http://ui.test:8080/workflows/mailed/instances/" + instance,
                  "  second  FAILURE");
        }
      }
    } finally {
      smtp.stop();
    }
  }

  /**
   * The subject of each message sent (GreenMail keeps a copy per recipient: one per message id
   * here).
   */
  private static List<String> subjects(GreenMail smtp) throws Exception {
    List<String> subjects = new ArrayList<>();
    HashSet<String> ids = new HashSet<>();
    for (jakarta.mail.internet.MimeMessage message : smtp.getReceivedMessages()) {
      if (ids.add(message.getMessageID())) {
        subjects.add(message.getSubject());
      }
    }
    return subjects;
  }

  /** host-pid of a worker name host-pid-slot-random. */
  private static String process(String worker) {
    return worker.replaceAll("-\\d+-[0-9a-f]{6}$", "");
  }

  @Test
  void sigtermHandsBackARunningJobThatAnotherWorkerThenRuns() throws Exception {
    startMaster(0);
    FlipperProcess stopping =
        startWorkers("stopping", "workers.count=1", "workers.shutdownGrace=1s");
    String instance =
        start(
            WorkflowDefinition.builder("handback")
                .job(job("long", "sleep 6 && echo done"))
                .build());
    await("long runs")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                detail("handback", instance)
                    .job("long")
                    .flatMap(JobDetail::lastExecution)
                    .map(ExecutionDetail::running)
                    .orElse(false));

    stopping.sigterm();
    assertThat(stopping.awaitExit(Duration.ofSeconds(30))).as(stopping.output()).isZero();
    ExecutionDetail handedBack =
        detail("handback", instance).job("long").flatMap(JobDetail::lastExecution).orElseThrow();
    assertThat(handedBack.endReason()).isEqualTo("handed back");
    startWorkers("next");

    InstanceDetail end = awaitEnd("handback", instance, Duration.ofSeconds(60));
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<ExecutionDetail> executions = end.job("long").orElseThrow().executions();
    assertThat(executions).extracting(ExecutionDetail::attempt).containsExactly(1, 1);
    assertThat(executions.get(1).exitCode()).isZero();
  }

  @Test
  void aMasterRestartedMidRunIsRiddenOut() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    FlipperProcess master = startMaster(port);
    // A lease longer than the master's restart: the running job is renewed again once it answers.
    startWorkers("w", "workers.lease=20s").awaitReady(List.of("workers"));
    String instance =
        start(
            WorkflowDefinition.builder("chain")
                .job(job("a", "sleep 3 && echo FLIPPER:EVENT_ATTR:x=1"))
                .job(job("b", "echo b %(x)s").needs("a"))
                .job(job("c", "echo c").needs("b"))
                .build());
    await("a runs")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                detail("chain", instance)
                    .job("a")
                    .flatMap(JobDetail::lastExecution)
                    .map(ExecutionDetail::running)
                    .orElse(false));

    master.sigterm();
    assertThat(master.awaitExit(Duration.ofSeconds(30))).isZero();
    startMaster(port);

    InstanceDetail end = awaitEnd("chain", instance, Duration.ofSeconds(60));
    assertThat(end.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.jobs()).allSatisfy(j -> assertThat(j.executions()).hasSize(1));
    Optional<ExecutionDetail> b = end.job("b").flatMap(JobDetail::lastExecution);
    assertThat(b.orElseThrow().command()).isEqualTo("echo b '1'"); // quoted for the shell
  }
}
