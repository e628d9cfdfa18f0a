package dev.flipper.workflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.flipper.history.ExecutionPage;
import dev.flipper.history.ExecutionQuery;
import dev.flipper.history.ExecutionRecord;
import dev.flipper.history.RunPage;
import dev.flipper.history.RunQuery;
import dev.flipper.history.RunRecord;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine's behaviour on one token store; subclasses give the store (in memory, H2, MariaDB).
 * Time is a settable clock shared by the master and the engine: no test sleeps. Pinball checklist
 * items in brackets.
 */
abstract class EngineContractTest {
  static final Duration LEASE = Duration.ofMinutes(5);

  protected final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  protected TokenMaster master;
  protected WorkflowEngine engine;

  /** A fresh, empty master on this test's store, using {@code clock}. */
  protected abstract TokenMaster openMaster(SettableClock clock);

  protected void closeMaster() {}

  @BeforeEach
  void openEngine() {
    master = openMaster(clock);
    engine = WorkflowEngine.builder(master).clock(clock).build();
  }

  @AfterEach
  void close() {
    closeMaster();
  }

  static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  static WorkflowDefinition workflow(String name, JobDefinition.Builder... jobs) {
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder(name);
    for (JobDefinition.Builder job : jobs) {
      builder.job(job);
    }
    return builder.build();
  }

  String startInstance(WorkflowDefinition definition) {
    engine.definitions().apply(List.of(definition));
    return engine.instances().start(definition.name());
  }

  ClaimedJob claim(String worker) {
    return engine.claim(worker, LEASE).orElseThrow(() -> new AssertionError("nothing claimable"));
  }

  Finished run(ClaimedJob job, int exitCode, Map<String, List<String>> properties) {
    engine.start(
        job, new ExecutionStart(job.command(), "host1", Map.of("stdout", "http://host1/log")));
    return engine.finish(job, ExecutionResult.exit(exitCode, properties));
  }

  Finished run(ClaimedJob job, int exitCode) {
    return run(job, exitCode, Map.of());
  }

  InstanceDetail detail(String wf, String inst) {
    return engine.status().instance(wf, inst).orElseThrow();
  }

  JobStatus status(String wf, String inst, String job) {
    return detail(wf, inst).job(job).orElseThrow().status();
  }

  List<String> names(String prefix) {
    return master.query(Query.prefix(prefix)).stream().map(Token::name).toList();
  }

  // ---- definitions

  @Test
  void applyAddsChangesKeepsAndPrunes() {
    WorkflowDefinition a = workflow("a", job("x"));
    WorkflowDefinition b = workflow("b", job("y"));
    assertThat(engine.definitions().apply(List.of(a, b)).added()).containsExactly("a", "b");
    String version = engine.definitions().get("a").orElseThrow().version();

    ApplyResult again =
        engine.definitions().apply(List.of(a, workflow("b", job("y"), job("z", "y"))));

    assertThat(again.unchanged()).containsExactly("a");
    assertThat(again.changed()).containsExactly("b");
    assertThat(engine.definitions().get("a").orElseThrow().version()).isEqualTo(version);
    assertThat(engine.definitions().get("b").orElseThrow().definition().jobs()).hasSize(2);
    assertThat(engine.definitions().apply(List.of(a)).removed()).isEmpty();
    ApplyResult pruned = engine.definitions().apply(List.of(a), true);
    assertThat(pruned.removed()).containsExactly("b");
    assertThat(engine.definitions().list()).extracting(StoredDefinition::name).containsExactly("a");
    assertThat(master.query(Query.prefix("/definition/a")).get(0).data())
        .contains("\"kind\":\"definition\"", "\"version\":\"" + version + "\"", "workflow: a");
  }

  @Test
  void startNeedsAStoredDefinition() {
    assertThatThrownBy(() -> engine.instances().start("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("flipper workflow apply");
  }

  // ---- instance start and hops

  @Test
  void startMakesRootsRunnableAndTheRestWaiting() { // [12]
    String inst = startInstance(workflow("wf", job("a"), job("b", "a")));

    assertThat(names(TokenLayout.runnablePrefix("wf", inst)))
        .containsExactly("/runnable/wf/" + inst + "/a");
    assertThat(names(TokenLayout.instancePrefix("wf", inst)))
        .containsExactly(
            "/workflow/wf/" + inst + "/instance", "/workflow/wf/" + inst + "/job/waiting/b");
    assertThat(detail("wf", inst).summary().status()).isEqualTo(InstanceStatus.RUNNING);
    assertThat(master.query(Query.prefix("/runnable/")).get(0).priority()).isEqualTo(2.0);
  }

  @Test
  void aChainRunsToSuccess() { // [15]
    String inst = startInstance(workflow("wf", job("a"), job("b", "a"), job("c", "b")));

    for (String expected : List.of("a", "b", "c")) {
      ClaimedJob job = claim("w1");
      assertThat(job.job()).isEqualTo(expected);
      Finished finished = run(job, 0);
      assertThat(finished.outcome()).isEqualTo(Finished.Outcome.SUCCEEDED);
      assertThat(finished.instanceEnded())
          .isEqualTo(expected.equals("c") ? Optional.of(InstanceStatus.SUCCESS) : Optional.empty());
    }

    assertThat(engine.claim("w1", LEASE)).isEmpty();
    InstanceDetail detail = detail("wf", inst);
    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(detail.summary().end()).isPresent();
    assertThat(detail.jobs()).extracting(JobDetail::name).containsExactly("a", "b", "c");
    assertThat(detail.jobs()).extracting(JobDetail::status).containsOnly(JobStatus.SUCCESS);
    ExecutionDetail record = detail.job("a").orElseThrow().executions().get(0);
    assertThat(record.exitCode()).isZero();
    assertThat(record.start()).isBeforeOrEqualTo(record.end().orElseThrow());
    assertThat(record.logs()).containsEntry("stdout", "http://host1/log");
    assertThat(names(TokenLayout.instancePrefix("wf", inst) + "input/")).isEmpty();
  }

  @Test
  void aJoinWaitsForEveryInputAndDataFlowsThroughEvents() { // [13] [14] [23] [24]
    String inst =
        startInstance(workflow("d", job("a"), job("b", "a"), job("c", "a"), job("d", "b", "c")));
    run(claim("w"), 0, Map.of("EVENT_ATTR:day", List.of("2026-11-24")));
    ClaimedJob first = claim("w");
    ClaimedJob second = claim("w");
    assertThat(first.eventAttributes()).containsEntry("day", "2026-11-24");

    run(first, 0, Map.of("EVENT_ATTR:k", List.of(first.job() + "-value")));
    assertThat(status("d", inst, "d")).isEqualTo(JobStatus.WAITING);
    assertThat(names(TokenLayout.inputsPrefix("d", inst, "d"))).hasSize(1);
    run(second, 0, Map.of("EVENT_ATTR:k", List.of(second.job() + "-value")));

    ClaimedJob join = claim("w");
    assertThat(join.job()).isEqualTo("d");
    assertThat(join.events()).extracting(Event::input).containsExactly("b", "c");
    assertThat(join.eventAttributes()).containsEntry("k", "b-value,c-value");
    assertThat(join.eventAttributeValues()).containsEntry("k", List.of("b-value", "c-value"));
    assertThat(names(TokenLayout.inputsPrefix("d", inst, "d"))).isEmpty();
    assertThat(run(join, 0).instanceEnded()).contains(InstanceStatus.SUCCESS);
  }

  @Test
  void aJoinRecordsItsReadyInputsAndRebuildsThemFromTheEventsWhenMissingOrWrong() {
    String inst =
        startInstance(
            workflow(
                "r",
                job("a"),
                job("b", "a"),
                job("c", "a"),
                job("e", "a"),
                job("d", "b", "c", "e")));
    run(claim("w"), 0);
    String waiting = TokenLayout.waiting("r", inst, "d");
    assertThat(master.query(Query.prefix(waiting)).get(0).data()).contains("\"readyInputs\":[]");
    ClaimedJob b = claim("w");
    ClaimedJob c = claim("w");
    ClaimedJob e = claim("w");
    run(b, 0);
    Token afterB = master.query(Query.prefix(waiting)).get(0);
    assertThat(afterB.data()).contains("\"readyInputs\":[\"b\"]");

    // A token written without the field (an older release, an operator): the next success reads the
    // events.
    master.modify(
        ModifyParams.updating(
            afterB.withData(afterB.data().replace("\"readyInputs\":[\"b\"],", ""))));
    run(c, 0);
    assertThat(master.query(Query.prefix(waiting)).get(0).data())
        .contains("\"readyInputs\":[\"b\",\"c\"]");

    // A record that claims an input whose event is gone (edited by hand) is corrected from the
    // events.
    Token afterC = master.query(Query.prefix(waiting)).get(0);
    master.modify(
        new ModifyParams(
            List.of(), master.query(Query.prefix(TokenLayout.inputPrefix("r", inst, "d", "b")))));
    run(e, 0);
    assertThat(status("r", inst, "d")).isEqualTo(JobStatus.WAITING);
    assertThat(master.query(Query.prefix(waiting)).get(0).data())
        .contains("\"readyInputs\":[\"c\",\"e\"]");
    assertThat(afterC.version()).isNotEqualTo(master.query(Query.prefix(waiting)).get(0).version());
  }

  @Test
  void theHighestPriorityJobIsClaimedFirst() {
    startInstance(
        workflow("p", job("low").priority(1), job("high").priority(50), job("mid").priority(7)));

    assertThat(List.of(claim("w").job(), claim("w").job(), claim("w").job()))
        .containsExactly("high", "mid", "low");
  }

  // ---- failures and retries

  @Test
  void aFailureWithAttemptsLeftIsRetriedAfterTheDelay() { // [18] [17]
    String inst =
        startInstance(
            workflow(
                "r", job("a").maxAttempts(3).retryDelay(Duration.ofSeconds(60)), job("b", "a")));

    assertThat(run(claim("w"), 1).outcome()).isEqualTo(Finished.Outcome.RETRYING);
    assertThat(status("r", inst, "a")).isEqualTo(JobStatus.RUNNABLE);
    assertThat(detail("r", inst).job("a").orElseThrow().heldBy()).isEqualTo("retry-delay");
    clock.advance(Duration.ofSeconds(59));
    assertThat(engine.claim("w", LEASE)).isEmpty();
    clock.advance(Duration.ofSeconds(1));

    ClaimedJob again = claim("w");
    assertThat(again.attempt()).isEqualTo(2);
    run(again, 0);
    assertThat(claim("w").job()).isEqualTo("b");
    assertThat(detail("r", inst).job("a").orElseThrow().executions())
        .extracting(ExecutionDetail::exitCode)
        .containsExactly(1, 0);
  }

  @Test
  void aJobOutOfAttemptsFailsForGoodAndTheInstanceFails() { // [16]
    String inst = startInstance(workflow("f", job("a").maxAttempts(3), job("b", "a")));

    assertThat(run(claim("w"), 1).outcome()).isEqualTo(Finished.Outcome.RETRYING);
    assertThat(run(claim("w"), 2).outcome()).isEqualTo(Finished.Outcome.RETRYING);
    ClaimedJob third = claim("w");
    assertThat(third.attempt()).isEqualTo(3);
    Finished last = run(third, 3);

    assertThat(last.outcome()).isEqualTo(Finished.Outcome.FAILED);
    assertThat(last.instanceEnded()).contains(InstanceStatus.FAILURE);
    assertThat(engine.claim("w", LEASE)).isEmpty();
    InstanceDetail detail = detail("f", inst);
    assertThat(detail.summary().failedJobs()).containsExactly("a");
    assertThat(detail.job("a").orElseThrow().status()).isEqualTo(JobStatus.FAILURE);
    assertThat(detail.job("a").orElseThrow().executions()).hasSize(3);
    // Below a job that failed for good: it can never run in this instance (issue #26).
    assertThat(detail.job("b").orElseThrow().status()).isEqualTo(JobStatus.UPSTREAM_FAILED);
    assertThat(names(TokenLayout.instancePrefix("f", inst) + "input/")).isEmpty();
  }

  @Test
  void anIndependentBranchFinishesAfterAFailure() { // [19]
    String inst = startInstance(workflow("i", job("bad"), job("good"), job("after", "good")));
    ClaimedJob bad = claim("w");
    ClaimedJob good = claim("w");
    if (bad.job().equals("good")) {
      ClaimedJob swap = bad;
      bad = good;
      good = swap;
    }

    assertThat(run(bad, 1).instanceEnded()).isEmpty();
    assertThat(run(good, 0).instanceEnded()).isEmpty();
    assertThat(run(claim("w"), 0).instanceEnded()).contains(InstanceStatus.FAILURE);
    assertThat(status("i", inst, "after")).isEqualTo(JobStatus.SUCCESS);
  }

  @Test
  void aRetriedJobKeepsItsEvents() {
    startInstance(workflow("e", job("a"), job("b", "a").maxAttempts(2)));
    run(claim("w"), 0, Map.of("EVENT_ATTR:x", List.of("1")));
    run(claim("w"), 1);

    assertThat(claim("w").eventAttributes()).containsEntry("x", "1");
  }

  // ---- leases

  @Test
  void aLostLeaseIsReclaimedAndItsAttemptClosedAsFailed() { // [29] [30]
    String inst = startInstance(workflow("l", job("a").maxAttempts(2), job("b", "a")));
    ClaimedJob dead = engine.claim("dead-worker", Duration.ofSeconds(10)).orElseThrow();
    engine.start(dead, new ExecutionStart("run a", "host0", Map.of()));
    assertThat(status("l", inst, "a")).isEqualTo(JobStatus.RUNNING);
    assertThat(engine.claim("w2", LEASE)).isEmpty();

    clock.advance(Duration.ofSeconds(11));
    ClaimedJob again = claim("w2");

    assertThat(again.job()).isEqualTo("a");
    assertThat(again.attempt()).isEqualTo(2);
    ExecutionDetail stale = detail("l", inst).job("a").orElseThrow().executions().get(0);
    assertThat(stale.endReason()).isEqualTo("lease lost");
    assertThat(stale.end()).isPresent();
    assertThat(stale.exitCode()).isNull();
    assertThatThrownBy(() -> engine.renew(dead)).isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> engine.finish(dead, ExecutionResult.exit(0)))
        .isInstanceOf(LeaseLostException.class);
    assertThat(run(again, 0).outcome()).isEqualTo(Finished.Outcome.SUCCEEDED);
  }

  @Test
  void aLostLeaseOnTheLastAttemptFailsTheJobForGood() {
    String inst = startInstance(workflow("l1", job("a"), job("b", "a")));
    ClaimedJob dead = engine.claim("dead-worker", Duration.ofSeconds(10)).orElseThrow();
    engine.start(dead, new ExecutionStart("run a", "host0", Map.of()));
    clock.advance(Duration.ofSeconds(11));

    assertThat(engine.claim("w2", LEASE)).isEmpty();

    InstanceDetail detail = detail("l1", inst);
    assertThat(detail.summary().status()).isEqualTo(InstanceStatus.FAILURE);
    assertThat(detail.job("a").orElseThrow().status()).isEqualTo(JobStatus.FAILURE);
  }

  @Test
  void theListenerHearsEachFailureForGoodAndTheEndOnceAlsoFromAClaim() {
    List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
    List<JobNotice> notices = java.util.Collections.synchronizedList(new ArrayList<>());
    WorkflowEngine listening =
        WorkflowEngine.builder(master)
            .clock(clock)
            .listener(
                new EngineListener() {
                  @Override
                  public void jobFailed(JobNotice job, boolean firstFailure) {
                    heard.add("failed " + job.job() + (firstFailure ? " first" : ""));
                    notices.add(job);
                  }

                  @Override
                  public void instanceEnded(JobNotice lastJob, InstanceStatus status) {
                    heard.add("ended " + status + " by " + lastJob.job());
                  }
                })
            .build();
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("n")
                    .emails("team@example.com")
                    .job(job("a").emails("a@example.com"))
                    .job(job("b"))
                    .job(job("c"))
                    .build()));
    String inst =
        engine.instances().start("n", "scheduler", Map.of("scheduledTime", "2026-11-24T00:00:00Z"));

    ClaimedJob a = listening.claim("w1", LEASE).orElseThrow();
    listening.start(a, new ExecutionStart(a.command(), "h", Map.of("stdout", "http://h/a")));
    listening.finish(a, ExecutionResult.exit(2));
    ClaimedJob b = listening.claim("w1", LEASE).orElseThrow();
    listening.start(b, new ExecutionStart(b.command(), "h", Map.of()));
    listening.finish(b, ExecutionResult.exit(3));
    ClaimedJob dead = engine.claim("dead-worker", Duration.ofSeconds(10)).orElseThrow();
    engine.start(dead, new ExecutionStart(dead.command(), "h", Map.of()));
    clock.advance(Duration.ofSeconds(11));
    assertThat(listening.claim("w2", LEASE))
        .isEmpty(); // closes c's attempt: it fails for good, the instance ends

    assertThat(heard)
        .containsExactly("failed a first", "failed b", "failed c", "ended FAILURE by c");
    JobNotice first = notices.get(0);
    assertThat(first.emails()).containsExactly("a@example.com");
    assertThat(first.workflowEmails()).containsExactly("team@example.com");
    assertThat(first.params()).containsEntry("scheduledTime", "2026-11-24T00:00:00Z");
    assertThat(first.execution().exitCode()).isEqualTo(2);
    assertThat(first.execution().command()).isEqualTo("run a");
    assertThat(first.execution().logs()).containsEntry("stdout", "http://h/a");
    assertThat(notices.get(2).execution().endReason()).isEqualTo("lease lost");
    assertThat(detail("n", inst).summary().failedJobs()).containsExactly("a", "b", "c");
  }

  @Test
  void renewalExtendsTheLease() {
    startInstance(workflow("n", job("a")));
    ClaimedJob job = engine.claim("w", Duration.ofSeconds(30)).orElseThrow();
    engine.start(job, new ExecutionStart("run a", "h", Map.of()));
    Instant firstEnd = job.leaseEnd();
    clock.advance(Duration.ofSeconds(20));

    engine.renew(job, Map.of("kill_id", List.of("42")));

    assertThat(job.leaseEnd()).isEqualTo(firstEnd.plusSeconds(20));
    clock.advance(Duration.ofSeconds(20));
    assertThat(engine.claim("other", LEASE)).isEmpty();
    assertThat(
            detail("n", engine.status().instances("n").get(0).instance())
                .job("a")
                .orElseThrow()
                .executions()
                .get(0)
                .properties())
        .containsEntry("kill_id", List.of("42"));
  }

  @Test
  void aReleasedJobIsClaimableAgainWithoutUsingAnAttempt() {
    startInstance(workflow("h", job("a")));
    ClaimedJob job = claim("w");
    engine.start(job, new ExecutionStart("run a", "h", Map.of()));

    engine.release(job);

    ClaimedJob again = claim("w2");
    assertThat(again.attempt()).isEqualTo(1);
    assertThat(again.execution()).isEqualTo(2);
  }

  // ---- disabled and condition jobs

  @Test
  void aDisabledJobSucceedsWithoutRunning() { // [21]
    String inst = startInstance(workflow("dis", job("a").disabled(true), job("b", "a")));

    ClaimedJob b = claim("w");

    assertThat(b.job()).isEqualTo("b");
    ExecutionDetail record = detail("dis", inst).job("a").orElseThrow().executions().get(0);
    assertThat(record.command()).isEqualTo("DISABLED");
    assertThat(record.exitCode()).isZero();
    assertThat(record.end()).contains(record.start());
    assertThat(status("dis", inst, "a")).isEqualTo(JobStatus.DISABLED);
    assertThat(run(b, 0).instanceEnded()).contains(InstanceStatus.SUCCESS);
  }

  @Test
  void aConditionIsRetriedAsASensorAndKeepsItsLastRecords() { // [22]
    String inst =
        startInstance(
            workflow(
                "s",
                JobDefinition.builder("sensor")
                    .condition(true)
                    .command("test -f x")
                    .maxAttempts(2)
                    .retryDelay(Duration.ofMinutes(5)),
                job("after", "sensor")));
    run(claim("w"), 1);
    clock.advance(Duration.ofMinutes(5));
    ClaimedJob second = claim("w");
    assertThat(second.condition()).isTrue();
    run(second, 0);
    run(claim("w"), 0);

    JobDetail sensor = detail("s", inst).job("sensor").orElseThrow();
    assertThat(sensor.executions()).extracting(ExecutionDetail::exitCode).containsExactly(1, 0);
    assertThat(detail("s", inst).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
  }

  @Test
  void aConditionKeepsOnlyItsLastMaxAttemptsRecords() {
    String inst =
        startInstance(
            workflow(
                "t",
                JobDefinition.builder("sensor")
                    .condition(true)
                    .command("test -f x")
                    .maxAttempts(2)
                    .retryDelay(Duration.ZERO)));
    run(claim("w"), 1);
    run(claim("w"), 1);

    JobDetail sensor = detail("t", inst).job("sensor").orElseThrow();
    assertThat(sensor.status()).isEqualTo(JobStatus.FAILURE);
    assertThat(sensor.executions()).extracting(ExecutionDetail::execution).containsExactly(1, 2);
  }

  // ---- signals

  @Test
  void aDrainedInstanceStartsNothing() { // [31], the engine's half
    String inst = startInstance(workflow("dr", job("a")));
    master.modify(
        ModifyParams.updating(
            Token.of(
                TokenLayout.instanceSignal("dr", inst, SignalAction.DRAIN),
                "{\"kind\":\"signal\",\"schema\":1,\"action\":\"DRAIN\"}")));

    assertThat(engine.claim("w", LEASE)).isEmpty();

    JobDetail a = detail("dr", inst).job("a").orElseThrow();
    assertThat(a.status()).isEqualTo(JobStatus.RUNNABLE);
    assertThat(a.heldBy()).isEqualTo("drained");
    clock.advance(Duration.ofDays(30));
    assertThat(engine.claim("w", LEASE)).isEmpty();
  }

  @Test
  void renewalReportsAnAbortAtAnyScope() {
    String inst = startInstance(workflow("ra", job("a")));
    ClaimedJob job = claim("w");
    engine.start(job, new ExecutionStart("run a", "h", Map.of()));
    assertThat(engine.renew(job).abortRequested()).isFalse();

    master.modify(
        ModifyParams.updating(
            Token.of(
                TokenLayout.workflowSignal("ra", SignalAction.ABORT),
                "{\"kind\":\"signal\",\"schema\":1,\"action\":\"ABORT\"}")));

    assertThat(engine.renew(job).abortRequested()).isTrue();
    assertThat(engine.signals("ra", inst)).containsExactly(SignalAction.ABORT);
    assertThat(engine.globalSignals()).isEmpty();
  }

  @Test
  void aGlobalAbortHoldsEveryJob() {
    startInstance(workflow("ab", job("a")));
    master.modify(
        ModifyParams.updating(
            Token.of(
                TokenLayout.globalSignal(SignalAction.ABORT),
                "{\"kind\":\"signal\",\"schema\":1,\"action\":\"ABORT\"}")));

    assertThat(engine.claim("w", LEASE)).isEmpty();
    assertThat(master.query(Query.prefix("/runnable/")).get(0).owner()).isEqualTo("aborted");
  }

  // ---- archive

  @Test
  void aFinishedInstanceIsArchivedAfterTheDelay() { // [20]
    String inst = startInstance(workflow("arc", job("a"), job("b", "a")));
    run(claim("w"), 0);
    run(claim("w"), 0);
    String other = engine.instances().start("arc");

    clock.advance(Duration.ofHours(12).minusSeconds(1));
    assertThat(engine.archiveDue()).isZero();
    clock.advance(Duration.ofSeconds(2));
    assertThat(engine.archiveDue()).isEqualTo(1);

    assertThat(names(TokenLayout.instancePrefix("arc", inst))).isEmpty();
    assertThat(names(TokenLayout.ARCHIVE)).isEmpty();
    assertThat(engine.status().instances("arc"))
        .extracting(InstanceSummary::instance)
        .containsExactly(other);
    assertThat(engine.archiveDue()).isZero();
  }

  // ---- run history

  /** Runs one instance of {@code hist} (a, then b) to its end; b exits with {@code exitOfB}. */
  private String finishedRun(int exitOfB) {
    String inst = engine.instances().start("hist", "cli", Map.of("day", "d" + exitOfB));
    clock.advance(Duration.ofSeconds(1));
    run(claim("w"), 0);
    clock.advance(Duration.ofSeconds(1));
    run(claim("w"), exitOfB);
    clock.advance(Duration.ofSeconds(1));
    return inst;
  }

  @Test
  void anArchivedInstanceStaysInTheRunHistoryWithItsExecutions() {
    engine.definitions().apply(List.of(workflow("hist", job("a"), job("b", "a"))));
    String ok = finishedRun(0);
    String failed = finishedRun(3);
    String running = engine.instances().start("hist", "scheduler", Map.of());
    clock.advance(Duration.ofHours(13));
    assertThat(engine.archiveDue()).isEqualTo(2);

    RunHistory history = engine.history();
    assertThat(history.runs(RunQuery.latest("hist", 10)).runs())
        .extracting(RunRecord::instance, RunRecord::status, RunRecord::startedBy)
        .containsExactly(
            tuple(running, "RUNNING", "scheduler"),
            tuple(failed, "FAILURE", "cli"),
            tuple(ok, "SUCCESS", "cli"));
    RunRecord failedRun = history.runs(RunQuery.latest("hist", 10)).runs().get(1);
    assertThat(failedRun.params()).containsEntry("day", "d3");
    assertThat(failedRun.failedJobs()).containsExactly("b");
    assertThat(failedRun.durationMillis()).contains(2_000L);
    assertThat(history.latest("hist").map(RunRecord::instance)).contains(running);

    RunQuery failures =
        new RunQuery("hist", Set.of("FAILURE"), null, null, null, null, null, 0, 10);
    assertThat(history.runs(failures).runs())
        .extracting(RunRecord::instance)
        .containsExactly(failed);
    assertThat(history.runs(failures).total()).isEqualTo(1);

    ExecutionPage ofB = history.executions(ExecutionQuery.ofJob("hist", "b", 10));
    assertThat(ofB.executions())
        .extracting(ExecutionRecord::instance, ExecutionRecord::status, ExecutionRecord::exitCode)
        .containsExactly(tuple(failed, "FAILURE", 3), tuple(ok, "SUCCESS", 0));
    assertThat(ofB.executions().get(0).logs()).containsEntry("stdout", "http://host1/log");
    assertThat(ofB.executions().get(0).host()).isEqualTo("host1");

    run(claim("w"), 0); // a of the running instance: active executions join the history
    assertThat(history.executions(ExecutionQuery.ofJob("hist", "a", 10)).executions())
        .extracting(ExecutionRecord::instance)
        .containsExactly(running, failed, ok);

    RunGrid grid = history.grid("hist", 2);
    assertThat(grid.runs()).extracting(RunRecord::instance).containsExactly(running, failed);
    assertThat(grid.executions().get(failed).get("b"))
        .extracting(ExecutionRecord::status)
        .containsExactly("FAILURE");
    assertThat(grid.executions().get(running)).containsOnlyKeys("a");
  }

  @Test
  void pagesOfTheRunHistoryMergeActiveAndArchivedRunsWithoutGapsOrRepeats() {
    engine.definitions().apply(List.of(workflow("hist", job("a"), job("b", "a"))));
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      all.add(finishedRun(i % 2));
    }
    clock.advance(Duration.ofHours(13));
    assertThat(engine.archiveDue()).isEqualTo(7);
    for (int i = 0; i < 3; i++) {
      all.add(engine.instances().start("hist", "cli", Map.of()));
      clock.advance(Duration.ofSeconds(1));
    }
    java.util.Collections.reverse(all); // newest first
    for (int size = 1; size <= 4; size++) {
      List<String> paged = new ArrayList<>();
      for (int offset = 0; offset < 12; offset += size) {
        RunPage page =
            engine
                .history()
                .runs(new RunQuery("hist", null, null, null, null, null, null, offset, size));
        assertThat(page.total()).isEqualTo(10);
        page.runs().forEach(r -> paged.add(r.instance()));
      }
      assertThat(paged).as("pages of %d", size).isEqualTo(all);
    }
  }

  @Test
  void cleanupDeletesTheRunHistoryWithTheArchivedTokens() {
    engine.definitions().apply(List.of(workflow("hist", job("a"), job("b", "a"))));
    finishedRun(0);
    clock.advance(Duration.ofHours(13));
    assertThat(engine.archiveDue()).isEqualTo(1);
    assertThat(master.queryRuns(RunQuery.latest("hist", 10)).runs()).hasSize(1);

    clock.advance(Duration.ofDays(30));
    dev.flipper.workflow.control.WorkflowControl.builder(engine)
        .clock(clock)
        .build()
        .cleanup(Duration.ofDays(28));

    assertThat(master.queryRuns(RunQuery.latest("hist", 10)).runs()).isEmpty();
    assertThat(master.queryExecutions(ExecutionQuery.ofJob("hist", "a", 10)).executions())
        .isEmpty();
  }

  // ---- token data

  @Test
  void writersKeepFieldsTheyDoNotKnow() {
    String inst = startInstance(workflow("k", job("a"), job("b", "a")));
    Token b = master.query(Query.prefix(TokenLayout.waiting("k", inst, "b"))).get(0);
    String future = b.data().replaceFirst("\\{", "{\"fromTheFuture\":{\"x\":1},");
    master.modify(ModifyParams.updating(b.withData(future)));

    run(claim("w"), 0);
    run(claim("w"), 0);

    assertThat(master.query(Query.prefix(TokenLayout.waiting("k", inst, "b"))).get(0).data())
        .contains("\"fromTheFuture\":{\"x\":1}");
  }

  @Test
  void aRunningInstanceKeepsTheDefinitionItStartedWith() {
    String inst = startInstance(workflow("snap", job("a"), job("b", "a")));
    engine
        .definitions()
        .apply(
            List.of(
                workflow(
                    "snap",
                    JobDefinition.builder("a").command("changed a"),
                    job("b", "a"),
                    job("c", "b"))));

    run(claim("w"), 0);
    ClaimedJob b = claim("w");
    assertThat(b.command()).isEqualTo("run b");
    assertThat(run(b, 0).instanceEnded()).contains(InstanceStatus.SUCCESS);
    assertThat(detail("snap", inst).jobs()).extracting(JobDetail::name).containsExactly("a", "b");
    assertThat(detail("snap", inst).job("a").orElseThrow().executions().get(0).command())
        .isEqualTo("run a");
  }

  // ---- status read model

  @Test
  void workflowsShowTheirLastInstance() {
    startInstance(workflow("one", job("a")));
    engine.definitions().apply(List.of(workflow("two", job("a"))));
    run(claim("w"), 0);

    List<WorkflowSummary> workflows = engine.status().workflows();

    assertThat(workflows).extracting(WorkflowSummary::name).containsExactly("one", "two");
    assertThat(workflows.get(0).status()).contains(InstanceStatus.SUCCESS);
    assertThat(workflows.get(0).definitionVersion()).isPresent();
    assertThat(workflows.get(1).lastInstance()).isEmpty();
  }

  @Test
  void aStartWritesTheCallersTokensInTheSameChange() {
    engine.definitions().apply(List.of(workflow("sch", job("a"))));
    Token schedule =
        master
            .modify(ModifyParams.updating(Token.of("/schedule/workflow/sch", "{\"n\":1}")))
            .get(0);

    engine
        .instances()
        .start(
            "sch", "scheduler", Map.of("scheduled", "t1"), List.of(schedule.withData("{\"n\":2}")));

    assertThat(master.query(Query.prefix("/schedule/")).get(0).data()).isEqualTo("{\"n\":2}");
    assertThat(engine.status().instances("sch"))
        .singleElement()
        .satisfies(i -> assertThat(i.params()).containsEntry("scheduled", "t1"));
    assertThatThrownBy(
            () -> engine.instances().start("sch", "scheduler", Map.of(), List.of(schedule)))
        .isInstanceOf(dev.flipper.token.TokenException.class);
    assertThat(engine.status().instances("sch")).hasSize(1);
  }

  @Test
  void instanceIdsAreUniqueWithinOneMillisecond() {
    engine.definitions().apply(List.of(workflow("u", job("a"))));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(engine.instances().start("u"));
    }
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(engine.status().instances("u"))
        .extracting(InstanceSummary::instance)
        .containsExactlyElementsOf(ids);
  }

  // ---- concurrency

  /** How many worker threads race; every backend gets the same load. */
  static final int WORKERS = 8;

  @Test
  @Tag("slow")
  void eightWorkersDrainAThousandJobFanOutExactlyOnce()
      throws Exception { // one root, 998 parallel, one join
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("fan").job(job("root"));
    List<String> middle = new ArrayList<>();
    for (int i = 0; i < 998; i++) {
      middle.add("p" + i);
      builder.job(job("p" + i, "root"));
    }
    builder.job(job("join", middle.toArray(String[]::new)));
    String inst = startInstance(builder.build());

    Race race = new Race(engine, WORKERS, job -> Map.of("EVENT_ATTR:v", List.of(job.job())));
    race.runUntilEnded(1, Duration.ofMinutes(5));

    race.assertEveryJobRanOnce(1000);
    assertThat(race.ended).containsExactly(InstanceStatus.SUCCESS);
    java.util.Set<String> joined =
        java.util.Set.of(race.attributesSeen.get("fan/" + inst + "/join").get("v").split(","));
    assertThat(joined).containsExactlyInAnyOrderElementsOf(middle);
    assertThat(detail("fan", inst).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(names(TokenLayout.instancePrefix("fan", inst) + "input/")).isEmpty();
  }

  @Test
  void aWideJoinReadsATokenOrTwoPerHopAndBecomesRunnableOnce() throws Exception {
    int parents = 200;
    WorkflowDefinition.Builder builder = WorkflowDefinition.builder("wide").job(job("root"));
    List<String> middle = new ArrayList<>();
    for (int i = 0; i < parents; i++) {
      // No name is a prefix of another: a read of one token by its name (a prefix query) gets that
      // token only.
      String name = String.format("p%03d", i);
      middle.add(name);
      builder.job(job(name, "root"));
    }
    builder.job(job("join", middle.toArray(String[]::new)));
    String inst = startInstance(builder.build());
    run(claim("w"), 0);
    CountingTokenMaster counting = new CountingTokenMaster(master);
    WorkflowEngine counted = WorkflowEngine.builder(counting).clock(clock).build();
    List<ClaimedJob> claimed = new ArrayList<>();
    for (int i = 0; i < parents; i++) {
      ClaimedJob job = counted.claim("w" + (i % WORKERS), LEASE).orElseThrow();
      counted.start(job, new ExecutionStart(job.command(), "h", Map.of()));
      claimed.add(job);
    }
    counting.reset();
    long retriesBefore = dev.flipper.workflow.tokens.ConflictRetry.retries();

    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(WORKERS);
    java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(WORKERS);
    List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < WORKERS; t++) {
      int first = t;
      // An engine per thread, as separate worker processes: their successes meet only at the
      // master.
      WorkflowEngine own = WorkflowEngine.builder(counting).clock(clock).build();
      futures.add(
          pool.submit(
              () -> {
                barrier.await();
                for (int i = first; i < parents; i += WORKERS) {
                  ClaimedJob job = claimed.get(i);
                  own.finish(
                      job, ExecutionResult.exit(0, Map.of("EVENT_ATTR:v", List.of(job.job()))));
                }
                return null;
              }));
    }
    pool.shutdown();
    for (java.util.concurrent.Future<?> future : futures) {
      future.get(2, java.util.concurrent.TimeUnit.MINUTES);
    }

    // Each try of a hop reads the join's waiting token, on a conflict the held token, and at the
    // end check
    // one runnable token and the instance record: at most 4. Only the completing hop reads the
    // join's events.
    long tries = parents + (dev.flipper.workflow.tokens.ConflictRetry.retries() - retriesBefore);
    assertThat(counting.tokensRead.get()).isLessThanOrEqualTo(4 * tries + (parents - 1));
    assertThat(names(TokenLayout.runnablePrefix("wide", inst)))
        .containsExactly(TokenLayout.runnable("wide", inst, "join"));
    ClaimedJob join = claim("w");
    assertThat(join.job()).isEqualTo("join");
    assertThat(java.util.Set.of(join.eventAttributes().get("v").split(",")))
        .containsExactlyInAnyOrderElementsOf(middle);
    assertThat(run(join, 0).instanceEnded()).contains(InstanceStatus.SUCCESS);
    assertThat(names(TokenLayout.instancePrefix("wide", inst) + "input/")).isEmpty();
  }

  @Test
  void eightWorkersRunManyDiamondsPassingDataExactlyOnce() throws Exception {
    engine
        .definitions()
        .apply(
            List.of(workflow("dia", job("a"), job("b", "a"), job("c", "a"), job("d", "b", "c"))));
    List<String> instances = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      instances.add(engine.instances().start("dia"));
    }

    Race race =
        new Race(
            engine,
            WORKERS,
            job -> Map.of("EVENT_ATTR:from", List.of(job.job() + "@" + job.instance())));
    race.runUntilEnded(instances.size(), Duration.ofMinutes(5));

    race.assertEveryJobRanOnce(4 * instances.size());
    assertThat(race.ended).hasSize(instances.size()).containsOnly(InstanceStatus.SUCCESS);
    for (String inst : instances) {
      assertThat(race.attributesSeen.get("dia/" + inst + "/b")).containsEntry("from", "a@" + inst);
      assertThat(race.attributesSeen.get("dia/" + inst + "/d"))
          .containsEntry("from", "b@" + inst + ",c@" + inst);
      assertThat(detail("dia", inst).summary().status()).isEqualTo(InstanceStatus.SUCCESS);
    }
  }

  @Test
  void eightWorkersWithRandomFailuresRetryAndEndEachInstanceOnce() throws Exception {
    engine
        .definitions()
        .apply(
            List.of(
                workflow(
                    "flaky",
                    job("a").maxAttempts(3),
                    job("b", "a").maxAttempts(3),
                    job("c", "a").maxAttempts(3),
                    job("d", "b", "c").maxAttempts(3))));
    List<String> instances = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      instances.add(engine.instances().start("flaky"));
    }
    Race race = new Race(engine, WORKERS, job -> Map.of());
    race.exitCodes = job -> fails(job.instance(), job.job(), job.attempt()) ? 1 : 0;
    race.runUntilEnded(instances.size(), Duration.ofMinutes(5));

    assertThat(race.ended).hasSize(instances.size());
    for (String inst : instances) {
      InstanceDetail detail = detail("flaky", inst);
      java.util.Set<String> failedForGood = new java.util.HashSet<>();
      for (JobDetail job : detail.jobs()) {
        boolean parentFailed =
            job.needs().stream().anyMatch(failedForGood::contains)
                || job.needs().stream()
                    .anyMatch(
                        n -> detail.job(n).map(p -> p.status() != JobStatus.SUCCESS).orElse(false));
        if (parentFailed) {
          assertThat(job.executions())
              .as(inst + "/" + job.name() + " after a failed parent")
              .isEmpty();
          continue;
        }
        int attempts = 1;
        while (attempts < 3 && fails(inst, job.name(), attempts)) {
          attempts++;
        }
        boolean failed = fails(inst, job.name(), attempts);
        assertThat(job.executions()).as(inst + "/" + job.name()).hasSize(attempts);
        assertThat(job.status())
            .as(inst + "/" + job.name())
            .isEqualTo(failed ? JobStatus.FAILURE : JobStatus.SUCCESS);
        if (failed) {
          failedForGood.add(job.name());
        }
      }
      assertThat(detail.summary().status())
          .as(inst)
          .isEqualTo(failedForGood.isEmpty() ? InstanceStatus.SUCCESS : InstanceStatus.FAILURE);
      assertThat(detail.summary().failedJobs()).containsExactlyInAnyOrderElementsOf(failedForGood);
    }
  }

  /**
   * A fixed pseudo-random outcome per instance, job and attempt: about one attempt in three fails.
   */
  static boolean fails(String instance, String job, int attempt) {
    return Math.floorMod((instance + "/" + job + "/" + attempt).hashCode() * 31 + 7, 3) == 0;
  }

  @Test
  void parallelLastJobsEndTheInstanceExactlyOnce() throws Exception {
    JobDefinition.Builder[] leaves = new JobDefinition.Builder[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
      leaves[i] = job("leaf" + i);
    }
    engine.definitions().apply(List.of(workflow("ends", leaves)));
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(WORKERS);
    try {
      for (int round = 0; round < 10; round++) {
        String inst = engine.instances().start("ends");
        List<ClaimedJob> claimed = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
          ClaimedJob job = claim("w" + i);
          engine.start(job, new ExecutionStart(job.command(), "h", Map.of()));
          claimed.add(job);
        }
        java.util.concurrent.CyclicBarrier barrier =
            new java.util.concurrent.CyclicBarrier(WORKERS);
        boolean failOne = round % 2 == 1;
        List<java.util.concurrent.Future<Finished>> results = new ArrayList<>();
        for (ClaimedJob job : claimed) {
          results.add(
              pool.submit(
                  () -> {
                    barrier.await();
                    return engine.finish(
                        job, ExecutionResult.exit(failOne && job.job().equals("leaf3") ? 1 : 0));
                  }));
        }
        List<InstanceStatus> ends = new ArrayList<>();
        for (java.util.concurrent.Future<Finished> result : results) {
          result.get(2, java.util.concurrent.TimeUnit.MINUTES).instanceEnded().ifPresent(ends::add);
        }
        InstanceStatus expected = failOne ? InstanceStatus.FAILURE : InstanceStatus.SUCCESS;
        assertThat(ends).as("round " + round).containsExactly(expected);
        assertThat(detail("ends", inst).summary().status()).isEqualTo(expected);
        assertThat(names(TokenLayout.archive("ends", inst))).hasSize(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Worker threads that claim, run (instantly) and finish until the expected instances have ended.
   */
  static final class Race {
    final WorkflowEngine engine;
    final int threads;
    final java.util.function.Function<ClaimedJob, Map<String, List<String>>> properties;
    final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.AtomicInteger>
        runs = new java.util.concurrent.ConcurrentHashMap<>();
    final java.util.concurrent.ConcurrentHashMap<String, Map<String, String>> attributesSeen =
        new java.util.concurrent.ConcurrentHashMap<>();
    final List<InstanceStatus> ended = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.function.ToIntFunction<ClaimedJob> exitCodes = job -> 0;

    Race(
        WorkflowEngine engine,
        int threads,
        java.util.function.Function<ClaimedJob, Map<String, List<String>>> properties) {
      this.engine = engine;
      this.threads = threads;
      this.properties = properties;
    }

    void runUntilEnded(int instances, Duration limit) throws Exception {
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(threads);
      long deadline = System.nanoTime() + limit.toNanos();
      List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String worker = "worker-" + t;
        futures.add(
            pool.submit(
                () -> {
                  while (ended.size() < instances && System.nanoTime() < deadline) {
                    Optional<ClaimedJob> claimed = engine.claim(worker, LEASE);
                    if (claimed.isEmpty()) {
                      Thread.sleep(1); // an idle worker; the long-poll will replace this
                      continue;
                    }
                    ClaimedJob job = claimed.get();
                    String key = job.workflow() + "/" + job.instance() + "/" + job.job();
                    runs.computeIfAbsent(key, k -> new java.util.concurrent.atomic.AtomicInteger())
                        .incrementAndGet();
                    attributesSeen.put(key, job.eventAttributes());
                    engine.start(job, new ExecutionStart(job.command(), "host", Map.of()));
                    engine
                        .finish(
                            job,
                            ExecutionResult.exit(exitCodes.applyAsInt(job), properties.apply(job)))
                        .instanceEnded()
                        .ifPresent(ended::add);
                  }
                  return null;
                }));
      }
      pool.shutdown();
      for (java.util.concurrent.Future<?> future : futures) {
        future.get(limit.toMillis() + 10_000, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
      assertThat(ended).as("instances ended before the time limit").hasSize(instances);
    }

    void assertEveryJobRanOnce(int jobs) {
      assertThat(runs).hasSize(jobs);
      assertThat(runs.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
    }
  }
}
