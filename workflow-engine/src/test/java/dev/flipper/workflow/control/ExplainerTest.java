package dev.flipper.workflow.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.SettableClock;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.fleet.ExitSignal;
import dev.flipper.workflow.fleet.Heartbeat;
import dev.flipper.workflow.fleet.Heartbeats;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.Owners;
import dev.flipper.workflow.tokens.SignalData;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One test per reason of {@link Explainer}, each with the state set up in the token representation
 * the engine and the control operations use (signals, reserved owners, heartbeats), on an in-memory
 * master with a clock the test moves.
 */
class ExplainerTest {
  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

  private final SettableClock clock = new SettableClock(T0);
  private TokenMaster master;
  private WorkflowEngine engine;
  private Heartbeats heartbeats;

  @BeforeEach
  void setUp() {
    master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    engine = WorkflowEngine.builder(master).clock(clock).build();
    heartbeats = new Heartbeats(master);
  }

  private String start(JobDefinition.Builder... jobs) {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("etl");
    for (JobDefinition.Builder job : jobs) {
      builder.job(job);
    }
    engine.definitions().apply(List.of(builder.build()));
    return engine.instances().start("etl");
  }

  private static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  private void worker(String name, int generation, int slots, List<String> running, Duration age) {
    heartbeats.beat(
        new Heartbeat(
            name,
            "host-" + name,
            Optional.of("http://" + name + ":9093"),
            generation,
            slots,
            running,
            false,
            T0,
            clock.instant().minus(age),
            Duration.ofSeconds(15)));
  }

  private void idleWorker() {
    worker("w1", 1, 2, List.of(), Duration.ZERO);
  }

  private ClaimedJob claimAndStart(String worker) {
    ClaimedJob job = engine.claim(worker, Duration.ofMinutes(1)).orElseThrow();
    engine.start(job, new ExecutionStart(job.command(), "host", Map.of()));
    return job;
  }

  private void signal(String name, Integer generation) {
    SignalData data = new SignalData();
    data.action = TokenLayout.last(name);
    data.generation = generation;
    data.timestampMillis = clock.millis();
    master.modify(ModifyParams.updating(Token.of(name, Json.write(data))));
  }

  private Explanation explain(String instance, String job) {
    return Explainer.explain(
        ExplainSnapshot.read(engine, clock, "etl", Optional.of(instance)),
        Optional.ofNullable(job));
  }

  @Test
  void waitingForParentsNamesEachMissingParentAndItsState() {
    idleWorker();
    String id = start(job("a"), job("b"), job("c", "a", "b"));
    claimAndStart("w1-1");

    Explanation c = explain(id, "c");

    assertThat(c.reason()).isEqualTo(Reason.WAITING_FOR_PARENTS);
    assertThat(c.text()).isEqualTo("waiting for parents a (running), b (runnable, not started).");
  }

  @Test
  void aFailedAttemptIsInRetryDelayUntilItsLeaseEnds() {
    idleWorker();
    String id = start(job("a").maxAttempts(3).retryDelay(Duration.ofMinutes(5)));
    engine.finish(claimAndStart("w1-1"), ExecutionResult.exit(2));

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.RETRY_DELAY);
    assertThat(a.text())
        .isEqualTo(
            "attempt 1 of 3 failed (exited 2 at 2026-11-24 10:00:00 UTC); in retry delay until "
                + "2026-11-24 10:05:00 UTC.");
  }

  @Test
  void drainSaysAtWhichLevel() {
    idleWorker();
    String id = start(job("a"));
    clock.advance(Duration.ofSeconds(30));
    signal(TokenLayout.workflowSignal("etl", SignalAction.DRAIN), null);

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.DRAINED);
    assertThat(a.text())
        .isEqualTo(
            "drained at the workflow level (since 2026-11-24 10:00:30 UTC): nothing new starts "
                + "until undrain.");
  }

  @Test
  void aJobHeldAsDrainedAfterTheSignalWentStillSaysSo() {
    idleWorker();
    String id = start(job("a"));
    signal(TokenLayout.globalSignal(SignalAction.DRAIN), null);
    assertThat(engine.claim("w1-1", Duration.ofMinutes(1))).isEmpty(); // held with owner "drained"
    master.modify(
        ModifyParams.deleting(
            master.query(Query.prefix(TokenLayout.globalSignal(SignalAction.DRAIN))).get(0)));

    assertThat(explain(id, "a").reason()).isEqualTo(Reason.DRAINED);
    assertThat(explain(id, "a").text()).startsWith("held as drained");
  }

  @Test
  void aJobOwnedByPauseIsPaused() {
    idleWorker();
    String id = start(job("a"));
    Token runnable = master.query(Query.prefix(TokenLayout.runnable("etl", id, "a"))).get(0);
    master.modify(ModifyParams.updating(runnable.withOwner(Owners.PAUSED, Owners.FOREVER)));

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.PAUSED);
    assertThat(a.text())
        .isEqualTo(
            "paused at the instance level: nothing new starts until flipper workflow resume "
                + "-w etl -i "
                + id
                + "; running jobs finish and keep their results.");
  }

  @Test
  void aPauseSignalOnTheInstanceIsPausedWhileItsRunningJobRuns() {
    idleWorker();
    String id = start(job("a"), job("b"));
    ClaimedJob running = claimAndStart("w1-1");
    clock.advance(Duration.ofSeconds(5));
    signal(TokenLayout.instanceSignal("etl", id, SignalAction.PAUSE), null);

    String other = running.job().equals("a") ? "b" : "a";
    Explanation paused = explain(id, other);
    assertThat(paused.reason()).isEqualTo(Reason.PAUSED);
    assertThat(paused.text())
        .startsWith("paused at the instance level (since 2026-11-24 10:00:05 UTC): nothing new");
    assertThat(explain(id, running.job()).reason())
        .as("a running job finishes")
        .isEqualTo(Reason.RUNNING);
  }

  @Test
  void abortAtTheInstanceLevelExplainsTheInstanceAndItsJobs() {
    idleWorker();
    String id = start(job("a"), job("b", "a"));
    signal(TokenLayout.instanceSignal("etl", id, SignalAction.ABORT), null);

    assertThat(explain(id, null).reason()).isEqualTo(Reason.ABORTED);
    Explanation b = explain(id, "b");
    assertThat(b.reason()).isEqualTo(Reason.ABORTED);
    assertThat(b.text())
        .startsWith(
            "aborted at the instance level (since 2026-11-24 10:00:00 UTC): nothing starts");
  }

  @Test
  void aJobHeldAsAbortedAfterTheSignalWentStillSaysSo() {
    idleWorker();
    String id = start(job("a"));
    Token runnable = master.query(Query.prefix(TokenLayout.runnable("etl", id, "a"))).get(0);
    master.modify(ModifyParams.updating(runnable.withOwner(Owners.ABORTED, Owners.FOREVER)));

    assertThat(explain(id, "a").reason()).isEqualTo(Reason.ABORTED);
    assertThat(explain(id, "a").text()).startsWith("held as aborted");
  }

  @Test
  void noWorkerAliveNamesTheLastHeartbeat() {
    worker("old", 1, 2, List.of(), Duration.ofSeconds(75));
    String id = start(job("a"));

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.NO_WORKER_ALIVE);
    assertThat(a.text())
        .isEqualTo(
            "no worker is alive: the last heartbeat came from old (generation 1) 1m 15s ago. "
                + "Start workers (flipper -m workers).");
  }

  @Test
  void noHeartbeatAtAllIsNoWorkerAlive() {
    String id = start(job("a"));

    assertThat(explain(id, "a").reason()).isEqualTo(Reason.NO_WORKER_ALIVE);
    assertThat(explain(id, "a").text()).contains("no worker has published a heartbeat");
  }

  @Test
  void allWorkersBusyWhenEverySlotRunsAJob() {
    worker("w1", 1, 1, List.of("other/1/x"), Duration.ofSeconds(2));
    worker("w2", 1, 2, List.of("other/1/y", "other/1/z"), Duration.ZERO);
    String id = start(job("a"));

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.ALL_WORKERS_BUSY);
    assertThat(a.text())
        .startsWith("all 2 workers that take work are busy (3 of 3 slots run jobs)");
  }

  @Test
  void generationMismatchWhenExitRetiresEveryAliveWorker() {
    worker("old", 1, 2, List.of(), Duration.ZERO);
    new ExitSignal(master, clock).set(2);
    String id = start(job("a"));

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.GENERATION_MISMATCH);
    assertThat(a.text())
        .isEqualTo(
            "generation mismatch: an EXIT signal retires workers older than generation 2, "
                + "and every alive worker is older (generation 1). Start workers with workers.generation >= 2, or run "
                + "flipper workflow unexit.");
    worker("new", 2, 1, List.of(), Duration.ZERO);
    assertThat(explain(id, "a").reason()).isEqualTo(Reason.RUNNABLE);
  }

  @Test
  void maxRunningInstancesReachedForTheWorkflow() {
    String id = start(job("a"));
    ScheduleData schedule = new ScheduleData();
    schedule.workflow = "etl";
    schedule.maxRunningInstances = 1;
    schedule.nextRunMillis = T0.toEpochMilli();
    schedule.overrunPolicy = "START_NEW";
    master.modify(
        ModifyParams.updating(
            Token.of(ScheduleTokens.name("etl"), ScheduleTokens.write(schedule))));

    Explanation etl =
        Explainer.explain(
            ExplainSnapshot.read(engine, clock, "etl", Optional.empty()), Optional.empty());

    assertThat(etl.reason()).as(id).isEqualTo(Reason.MAX_RUNNING_INSTANCES);
    assertThat(etl.text())
        .isEqualTo(
            "max running instances reached: 1 of at most 1 run; the start due at "
                + "2026-11-24 10:00:00 UTC waits (overrun policy START_NEW) until one ends.");
  }

  @Test
  void aWorkflowWithoutScheduleStartsOnlyByHand() {
    start(job("a"));
    Explanation etl =
        Explainer.explain(
            ExplainSnapshot.read(engine, clock, "etl", Optional.empty()), Optional.empty());
    assertThat(etl.reason()).isEqualTo(Reason.NOT_SCHEDULED);
  }

  @Test
  void runningSaysOnWhichWorker() {
    String id = start(job("a"), job("b", "a"));
    claimAndStart("w1-1");
    worker("w1", 1, 2, List.of("etl/" + id + "/a"), Duration.ZERO);

    Explanation instance = explain(id, null);

    assertThat(instance.reason()).isEqualTo(Reason.RUNNING);
    assertThat(instance.text()).isEqualTo("running: a.");
    assertThat(instance.jobs())
        .extracting(Explanation::reason)
        .containsExactly(Reason.RUNNING, Reason.WAITING_FOR_PARENTS);
    assertThat(instance.jobs().get(0).text())
        .isEqualTo(
            "running on worker w1 on host-w1 since 2026-11-24 10:00:00 UTC "
                + "(attempt 1 of 1, lease until 2026-11-24 10:01:00 UTC).");
  }

  @Test
  void aJobClaimedByAWorkerThatDiedWaitsForTheLease() {
    worker("host7-42-a1b2c3", 1, 2, List.of(), Duration.ofSeconds(40));
    worker("other", 1, 2, List.of(), Duration.ZERO);
    String id = start(job("a"));
    engine.claim("host7-42-2-a1b2c3", Duration.ofMinutes(1)).orElseThrow();

    Explanation a = explain(id, "a");

    assertThat(a.reason()).isEqualTo(Reason.WORKER_DEAD);
    assertThat(a.text())
        .isEqualTo(
            "claimed by host7-42-2-a1b2c3, but its worker's last heartbeat was 40s ago (dead): "
                + "another worker claims it when the lease ends at 2026-11-24 10:01:00 UTC.");
    worker("host7-42-a1b2c3", 1, 2, List.of(), Duration.ZERO);
    assertThat(explain(id, "a").text())
        .isEqualTo(
            "claimed by worker host7-42-a1b2c3 on host-host7-42-a1b2c3, "
                + "starting (lease until 2026-11-24 10:01:00 UTC).");
  }

  @Test
  void aRunnableJobWithAFreeWorkerIsAboutToStart() {
    idleWorker();
    String id = start(job("a"));
    assertThat(explain(id, "a").reason()).isEqualTo(Reason.RUNNABLE);
  }

  @Test
  void aJobThatFailedForGoodWhileOthersRun() {
    idleWorker();
    String id = start(job("a"), job("b"));
    ClaimedJob first = claimAndStart("w1-1");
    claimAndStart("w1-2");
    engine.finish(first, ExecutionResult.exit(1));

    Explanation failed = explain(id, first.job());
    assertThat(failed.reason()).isEqualTo(Reason.FAILED);
    assertThat(failed.text()).startsWith("failed for good: Its last attempt (1 of 1) exited 1");
  }

  @Test
  void aFinishedInstanceAndAMissingOne() {
    idleWorker();
    String id = start(job("a"));
    engine.finish(claimAndStart("w1-1"), ExecutionResult.exit(0));

    assertThat(explain(id, null).reason()).isEqualTo(Reason.FINISHED);
    assertThat(explain(id, null).text())
        .startsWith("the instance ended SUCCESS at 2026-11-24 10:00:00 UTC");
    assertThat(explain(id, "nope").reason()).isEqualTo(Reason.NOT_FOUND);
    assertThat(explain("123", null).reason()).isEqualTo(Reason.NOT_FOUND);
  }
}
