package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ExecutionDetail;
import dev.flipper.workflow.engine.InstanceDetail;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker fleet with real processes: the upgrade of issue 12 (generation 1 workers run a long
 * job, generation 2 workers start, {@code flipper workflow exit}: the long job completes on its
 * worker, the old workers exit 0, new jobs run on generation 2), and heartbeats as {@code workers}
 * and {@code explain} show them; {@code unexit} lets workers of the old generation work again. On
 * the token database a subclass gives.
 */
@Tag("processes")
abstract class WorkerFleetContract {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private ProcessCluster cluster;

  abstract String tokenDatabase(Path dir);

  @BeforeEach
  void cluster() {
    cluster = new ProcessCluster(dir, tokenDatabase(dir));
  }

  @AfterEach
  void stopAll() {
    cluster.close();
  }

  private FlipperProcess startWorkers(String name, int generation) throws Exception {
    FlipperProcess workers =
        cluster.startWorkers(name, "workers.count=1", "workers.generation=" + generation);
    workers.awaitReady(List.of("workers"));
    return workers;
  }

  private String cli(String... args) {
    return cluster.workflowCli(args);
  }

  private JsonNode workers() throws Exception {
    return JSON.readTree(cli("workers", "--json")).get("workers");
  }

  private String start(String workflow, JobDefinition.Builder... jobs) {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder(workflow);
    for (JobDefinition.Builder job : jobs) {
      builder.job(job);
    }
    return cluster.start(builder.build());
  }

  private InstanceDetail detail(String workflow, String instance) {
    return cluster.detail(workflow, instance);
  }

  private InstanceDetail awaitEnd(String workflow, String instance) {
    return cluster.awaitEnd(workflow, instance, Duration.ofSeconds(60));
  }

  /** host-pid of a slot name host-pid-slot-random. */
  private static String process(String slot) {
    return slot.replaceAll("-\\d+-[0-9a-f]{6}$", "");
  }

  /** host-pid of a heartbeat name host-pid-random. */
  private static String heartbeatProcess(String name) {
    return name.replaceAll("-[0-9a-f]{6}$", "");
  }

  @Test
  void exitRetiresTheOldGenerationAfterItsJobWhileTheNewOneTakesOver() throws Exception {
    cluster.startMaster(0);
    FlipperProcess old = startWorkers("old", 1);
    String witness = start("witness", JobDefinition.builder("w").command("true"));
    assertThat(awaitEnd("witness", witness).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<List<Token>> witnessBefore = witnessTokens();
    Path go = dir.resolve("go");
    Path done = dir.resolve("long.done");
    // Runs until the test lets it end: the upgrade happens while it runs, whatever the machine's
    // speed.
    String longRun =
        start(
            "long",
            JobDefinition.builder("slow")
                .command("while [ ! -f " + go + " ]; do sleep 0.1; done; touch " + done));
    String slowKey = "long/" + longRun + "/slow";
    await("the old worker's heartbeat shows the long job")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> workers().toString().contains(slowKey));
    JsonNode before = workers();
    assertThat(before).hasSize(1);
    String oldName = before.get(0).get("name").asText();
    assertThat(before.get(0).get("generation").asInt()).isEqualTo(1);
    assertThat(before.get(0).get("state").asText()).isEqualTo("alive");
    assertThat(cli("explain", "-w", "long", "-i", longRun, "-j", "slow"))
        .startsWith(slowKey + ": RUNNING\n  running on worker " + oldName);

    startWorkers("new", 2);
    assertThat(cli("exit", "--generation", "2", "--force"))
        .isEqualTo(
            "EXIT signal: none -> workers older than "
                + "generation 2 exit\nalive workers: 1 retiring (they exit after their current jobs), 1 working\n");
    assertThat(cli("exit", "--generation", "2", "--force")).startsWith("unchanged:");
    await("the old worker shows as retiring")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> cli("workers").contains("retiring"));

    String after =
        start(
            "after",
            JobDefinition.builder("a").command("true"),
            JobDefinition.builder("b").command("true").needs("a"),
            JobDefinition.builder("c").command("true").needs("b"));
    InstanceDetail afterEnd = awaitEnd("after", after);
    assertThat(afterEnd.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(
            detail("long", longRun)
                .job("slow")
                .flatMap(JobDetail::lastExecution)
                .orElseThrow()
                .running())
        .as("the old job still runs")
        .isTrue();

    Files.createFile(go);
    assertThat(old.awaitExit(Duration.ofSeconds(60))).as(old.output()).isZero();
    assertThat(old.out())
        .contains("flipper: stopping on EXIT signal: workers of generation 1 retired");
    InstanceDetail longEnd = awaitEnd("long", longRun);
    assertThat(longEnd.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<ExecutionDetail> slow = longEnd.job("slow").orElseThrow().executions();
    assertThat(slow).as("ran once, to the end, on the old worker").hasSize(1);
    assertThat(slow.get(0).exitCode()).isZero();
    assertThat(process(slow.get(0).worker())).isEqualTo(heartbeatProcess(oldName));
    assertThat(done).exists();

    JsonNode now = workers();
    assertThat(now).as("the old worker removed its heartbeat").hasSize(1);
    assertThat(now.get(0).get("generation").asInt()).isEqualTo(2);
    String newProcess = heartbeatProcess(now.get(0).get("name").asText());
    assertThat(afterEnd.jobs())
        .allSatisfy(j -> assertThat(process(j.executions().get(0).worker())).isEqualTo(newProcess));

    assertThat(witnessTokens().subList(0, 3))
        .as("another workflow's tokens")
        .isEqualTo(witnessBefore.subList(0, 3));
    assertThat(cli("unexit", "--force"))
        .startsWith("EXIT signal: workers older than generation 2 exit -> none\n");
  }

  @Test
  void aKilledWorkerShowsAsDeadAndExplainSaysNoWorkerIsAlive() throws Exception {
    cluster.startMaster(0);
    FlipperProcess doomed = startWorkers("doomed", 1);
    await("its heartbeat")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> workers().size() == 1);
    String name = workers().get(0).get("name").asText();

    doomed.kill();
    await("it shows as dead")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> workers().get(0).get("state").asText().equals("dead"));
    String instance = start("orphan", JobDefinition.builder("a").command("true"));

    // The killed worker's last waiting claim may still take the job in the master (until lease +
    // wait).
    await("no worker is alive")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              String why = cli("explain", "-w", "orphan", "-i", instance, "-j", "a");
              assertThat(why)
                  .matches("(?s)orphan/" + instance + "/a: (WORKER_DEAD|NO_WORKER_ALIVE)\n.*");
              return why.contains("NO_WORKER_ALIVE");
            });
    assertThat(cli("explain", "-w", "orphan", "-i", instance, "-j", "a"))
        .contains(
            "no worker is alive: the last " + "heartbeat came from " + name + " (generation 1) ");
    assertThat(cli("workers", "--forget-dead")).startsWith("forgot dead worker " + name + "\n");
    assertThat(workers()).isEmpty();
  }

  @Test
  void unexitLetsWorkersOfTheOldGenerationTakeWorkAgain() throws Exception {
    cluster.startMaster(0);
    FlipperProcess old = startWorkers("old", 1);
    String witness = start("witness", JobDefinition.builder("w").command("true"));
    assertThat(awaitEnd("witness", witness).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    List<List<Token>> witnessBefore = witnessTokens();
    Path go = dir.resolve("go");
    String inst =
        start(
            "held",
            JobDefinition.builder("first").command("while [ ! -f " + go + " ]; do sleep 0.1; done"),
            JobDefinition.builder("second").command("true").needs("first"));
    await("first runs")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> workers().toString().contains("held/" + inst + "/first"));

    cli("exit", "--generation", "2", "--force");
    await("the old worker retires")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> cli("workers").contains("retiring"));
    Files.createFile(go);
    assertThat(old.awaitExit(Duration.ofSeconds(60))).as(old.output()).isZero();
    InstanceDetail retired = detail("held", inst);
    assertThat(retired.summary().status()).isEqualTo(InstanceStatus.RUNNING);
    assertThat(retired.job("second").orElseThrow().executions()).as("nobody took it").isEmpty();

    assertThat(cli("unexit", "--force"))
        .startsWith("EXIT signal: workers older than generation 2 exit -> none\n");

    assertThat(cli("unexit", "--force")).startsWith("unchanged: EXIT signal none");
    startWorkers("again", 1);
    InstanceDetail end = awaitEnd("held", inst);
    assertThat(end.summary().status())
        .as("a generation 1 worker ran the rest")
        .isEqualTo(InstanceStatus.SUCCESS);
    assertThat(end.job("second").orElseThrow().executions()).hasSize(1);
    assertThat(witnessTokens()).as("another workflow's tokens").isEqualTo(witnessBefore);
    assertThat(cli("workers")).doesNotContain("EXIT signal");
  }

  private List<List<Token>> witnessTokens() {
    return cluster
        .engine()
        .master()
        .query(
            List.of(
                Query.prefix("/workflow/witness/"),
                Query.prefix("/runnable/witness/"),
                Query.prefix("/archive/witness/"),
                Query.prefix("/signal/")));
  }
}
