package dev.flipper.workflow.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.ClaimedJob;
import dev.flipper.workflow.engine.ExecutionResult;
import dev.flipper.workflow.engine.ExecutionStart;
import dev.flipper.workflow.engine.ForwardingTokenMaster;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.JobDetail;
import dev.flipper.workflow.engine.JobStatus;
import dev.flipper.workflow.engine.SettableClock;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.TokenLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The control operations on one token store; subclasses give the store (in memory, H2, MariaDB,
 * Thrift). Each test checks the effect, that the tokens changed are exactly those the result names
 * (a snapshot of every token before and after), and that a second identical call changes nothing.
 */
abstract class ControlContractTest {
  static final Duration LEASE = Duration.ofMinutes(5);
  private static final List<String> ROOTS =
      List.of("/definition/", "/workflow/", "/runnable/", "/archive/", "/signal/", "/schedule/");

  protected final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T01:00:00Z"));
  protected TokenMaster master;
  protected WorkflowEngine engine;
  protected WorkflowControl control;

  /** A fresh, empty master on this test's store, using {@code clock}. */
  protected abstract TokenMaster openMaster(SettableClock clock);

  protected void closeMaster() {}

  @BeforeEach
  void open() {
    master = openMaster(clock);
    engine = WorkflowEngine.builder(master).clock(clock).build();
    control = WorkflowControl.builder(engine).clock(clock).build();
  }

  @AfterEach
  void close() {
    closeMaster();
  }

  static JobDefinition.Builder job(String name, String... needs) {
    return JobDefinition.builder(name).command("run " + name).needs(needs);
  }

  String start(WorkflowDefinition.Builder definition) {
    WorkflowDefinition built = definition.build();
    engine.definitions().apply(List.of(built));
    return engine.instances().start(built.name());
  }

  static WorkflowDefinition.Builder chain() {
    return WorkflowDefinition.builder("wf").job(job("a")).job(job("b", "a")).job(job("c", "b"));
  }

  ClaimedJob claim() {
    return engine.claim("w1", LEASE).orElseThrow(() -> new AssertionError("nothing claimable"));
  }

  void run(ClaimedJob job, int exitCode) {
    engine.start(
        job,
        new ExecutionStart(job.command(), "host1", Map.of("stdout", "http://host1/" + job.job())));
    engine.finish(job, ExecutionResult.exit(exitCode, Map.of()));
  }

  JobDetail jobOf(String inst, String name) {
    return engine.status().instance("wf", inst).orElseThrow().job(name).orElseThrow();
  }

  InstanceStatus statusOf(String inst) {
    return engine.status().instance("wf", inst).orElseThrow().summary().status();
  }

  Map<String, Token> snapshot() {
    Map<String, Token> all = new TreeMap<>();
    for (List<Token> tokens : master.query(ROOTS.stream().map(Query::prefix).toList())) {
      tokens.forEach(t -> all.put(t.name(), t));
    }
    return all;
  }

  /**
   * Runs the operation; asserts the tokens changed are the ones it reports, and that a repeat
   * changes none.
   */
  ControlResult once(Supplier<ControlResult> operation) {
    ControlResult result = checked(operation);
    Map<String, Token> beforeRepeat = snapshot();
    ControlResult repeat = operation.get();
    assertThat(repeat.changes()).as("repeated " + result.operation()).isEmpty();
    assertThat(snapshot()).isEqualTo(beforeRepeat);
    return result;
  }

  /** Runs the operation; asserts it changed something and exactly the tokens it reports. */
  ControlResult checked(Supplier<ControlResult> operation) {
    Map<String, Token> before = snapshot();
    ControlResult result = operation.get();
    Map<String, Token> after = snapshot();
    TreeSet<String> changed = new TreeSet<>();
    before.forEach(
        (name, token) -> {
          if (!token.equals(after.get(name))) {
            changed.add(name);
          }
        });
    after.keySet().stream().filter(name -> !before.containsKey(name)).forEach(changed::add);
    assertThat(changed)
        .as("tokens changed by " + result.operation())
        .isEqualTo(new TreeSet<>(result.tokens()));
    assertThat(result.changed()).isTrue();
    return result;
  }

  @Test
  void drainHoldsNewJobsAndUndrainReleasesThem() {
    String inst = start(chain());
    ControlScope scope = ControlScope.workflow("wf");

    ControlResult drained = once(() -> control.drain(scope));

    assertThat(drained.tokens()).containsExactly("/signal/workflow/wf/DRAIN");
    assertThat(engine.claim("w1", LEASE)).isEmpty();
    assertThat(master.query(Query.prefix(TokenLayout.runnablePrefix("wf", inst))).get(0).owner())
        .isEqualTo("drained");
    ControlResult undrained = once(() -> control.undrain(scope));
    assertThat(undrained.tokens())
        .containsExactly("/signal/workflow/wf/DRAIN", "/runnable/wf/" + inst + "/a");
    assertThat(claim().job()).isEqualTo("a");
  }

  @Test
  void aGlobalDrainCoversEveryWorkflow() {
    start(chain());
    once(() -> control.drain(ControlScope.global()));
    assertThat(engine.claim("w1", LEASE)).isEmpty();
    assertThat(engine.globalSignals()).contains(dev.flipper.workflow.engine.SignalAction.DRAIN);
  }

  @Test
  void pauseKeepsTheRunningJobsResultAndStartsNothingUntilResume() {
    String inst =
        start(WorkflowDefinition.builder("wf").job(job("a")).job(job("b")).job(job("c", "a")));
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));

    ControlResult paused = once(() -> control.pause("wf", inst));

    assertThat(paused.tokens()).containsExactly("/signal/instance/wf/" + inst + "/PAUSE");
    engine.renew(a);
    engine.finish(a, ExecutionResult.exit(0, Map.of()));
    assertThat(jobOf(inst, "a").status())
        .as("the running job's result is kept")
        .isEqualTo(JobStatus.SUCCESS);
    assertThat(engine.claim("w1", LEASE)).as("nothing new starts").isEmpty();
    assertThat(jobOf(inst, "c").status()).isEqualTo(JobStatus.RUNNABLE);

    once(() -> control.resume("wf", inst));
    assertThat(List.of(claim().job(), claim().job())).containsExactlyInAnyOrder("b", "c");
  }

  @Test
  void abortEndsAnInstanceWithNothingRunningAtOnceAndUnabortLeavesItEnded() {
    String inst = start(chain());

    ControlResult aborted = control.abort(ControlScope.instance("wf", inst));

    assertThat(aborted.tokens())
        .contains(
            "/signal/instance/wf/" + inst + "/ABORT",
            "/archive/wf/" + inst,
            TokenLayout.instanceRecord("wf", inst),
            "/runnable/wf/" + inst + "/a");
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.ABORTED);
    assertThatThrownBy(() -> control.abort(ControlScope.instance("wf", inst)))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessage(
            "instance wf/"
                + inst
                + " has ended as ABORTED: there is nothing to abort; no signal was set");
    assertThat(engine.claim("w1", LEASE)).isEmpty();
    assertThat(engine.archiveDue()).as("archived at once").isEqualTo(1);
  }

  @Test
  void abortOfAnInstanceThatHasEndedSaysSoAndSetsNoSignal() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")));
    run(claim(), 0);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.SUCCESS);

    assertThatThrownBy(() -> control.abort(ControlScope.instance("wf", inst)))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessage(
            "instance wf/"
                + inst
                + " has ended as SUCCESS: there is nothing to abort; no signal was set");
    assertThat(engine.signals("wf", inst)).doesNotContain(SignalAction.ABORT);
  }

  @Test
  void abortOfARunningJobEndsTheInstanceWhenTheKilledJobFinishes() {
    String inst = start(chain());
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));

    ControlResult aborted = control.abort(ControlScope.workflow("wf"));

    assertThat(aborted.tokens()).containsExactly("/signal/workflow/wf/ABORT");
    assertThat(engine.renew(a).abortRequested()).isTrue();
    engine.finish(a, ExecutionResult.exit(137, Map.of()));
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.ABORTED);
    once(() -> control.unabort(ControlScope.workflow("wf")));
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.ABORTED);
  }

  @Test
  void anAbortedJobWithAttemptsAndARetryDelayLeftEndsTheInstanceAtOnce() {
    String inst =
        start(
            WorkflowDefinition.builder("wf")
                .job(job("a").maxAttempts(3).retryDelay(Duration.ofHours(1))));
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));
    control.abort(ControlScope.global());

    assertThat(engine.finish(a, ExecutionResult.exit(137, Map.of())).instanceEnded())
        .contains(InstanceStatus.ABORTED);
    assertThat(master.query(Query.prefix(TokenLayout.runnablePrefix("wf", inst))).get(0).owner())
        .isEqualTo("aborted");
  }

  @Test
  void unabortReleasesTheHeldJobsOfARunningInstance() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")).job(job("b")));
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));
    control.abort(ControlScope.instance("wf", inst));
    assertThat(engine.claim("w1", LEASE)).isEmpty(); // b is held aborted; a still runs

    ControlResult unaborted = once(() -> control.unabort(ControlScope.instance("wf", inst)));

    assertThat(unaborted.tokens())
        .containsExactly("/signal/instance/wf/" + inst + "/ABORT", "/runnable/wf/" + inst + "/b");
    assertThat(claim().job()).isEqualTo("b");
  }

  @Test
  void archiveMakesAnEndedInstanceDueNow() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")));
    run(claim(), 0);
    assertThat(engine.archiveDue()).isZero();

    ControlResult archived = once(() -> control.archive(ControlScope.workflow("wf")));

    assertThat(archived.tokens())
        .containsExactlyInAnyOrder("/archive/wf/" + inst, "/signal/workflow/wf/ARCHIVE");
    assertThat(engine.archiveDue()).isEqualTo(1);
    once(() -> control.unarchive(ControlScope.workflow("wf")));
  }

  @Test
  void anArchiveThatLandsWhileTheInstanceEndsStillMakesItDue() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")));
    AtomicBoolean landed = new AtomicBoolean();
    // The operator's archive lands after the worker's end of the instance read the signals (none
    // yet) and
    // before it writes the archive token (so the operation finds no token to make due).
    TokenMaster racing =
        new ForwardingTokenMaster(master) {
          @Override
          public List<Token> modify(ModifyParams params) {
            boolean ends =
                params.updates().stream().anyMatch(t -> t.name().equals("/archive/wf/" + inst));
            if (ends && landed.compareAndSet(false, true)) {
              control.archive(ControlScope.instance("wf", inst));
            }
            return super.modify(params);
          }
        };
    WorkflowEngine worker = WorkflowEngine.builder(racing).clock(clock).build();
    ClaimedJob a = worker.claim("w1", LEASE).orElseThrow();
    worker.start(a, new ExecutionStart(a.command(), "host1", Map.of()));

    worker.finish(a, ExecutionResult.exit(0, Map.of()));

    assertThat(landed).as("the archive landed in between").isTrue();
    assertThat(engine.archiveDue()).as("due now, not after the archive delay").isEqualTo(1);
    assertThat(engine.status().instance("wf", inst)).isEmpty();
  }

  @Test
  void stopDeletesEveryTokenOfTheInstance() {
    String inst = start(chain());
    ClaimedJob a = claim();
    run(a, 0);
    control.drain(ControlScope.instance("wf", inst));

    once(() -> control.stop("wf", inst));

    assertThat(engine.status().instance("wf", inst)).isEmpty();
    assertThat(snapshot().keySet()).noneMatch(name -> name.contains(inst));
  }

  @Test
  void startWithoutAScheduleWorksAndTheScheduleLimitIsExact() {
    engine.definitions().apply(List.of(chain().build()));
    ControlResult started = control.start("wf", "cli", Map.of());
    assertThat(started.instance()).isPresent();
    assertThat(started.tokens())
        .contains(TokenLayout.instanceRecord("wf", started.instance().get()));

    engine
        .definitions()
        .apply(
            List.of(chain().schedule(Schedule.every(Duration.ofHours(1)).maxRunning(2)).build()));
    clock.advance(Duration.ofMillis(1));
    ControlResult second = control.start("wf", "cli", Map.of());
    assertThat(second.tokens()).contains("/definition/wf");
    clock.advance(Duration.ofMillis(1));
    assertThatThrownBy(() -> control.start("wf", "cli", Map.of()))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("has 2 running instances")
        .hasMessageContaining("at most 2");
  }

  @Test
  void retryRunsTheFailedJobWithItsEventsAndPriorityAndRevivesTheInstance() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")).job(job("b")));
    run(claim(), 0);
    run(claim(), 1);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.FAILURE);
    String failed = jobOf(inst, "a").status() == JobStatus.FAILURE ? "a" : "b";
    double priority =
        master.query(Query.prefix(TokenLayout.waiting("wf", inst, failed))).get(0).priority();

    ControlResult retried = once(() -> control.retry("wf", inst));

    assertThat(retried.tokens())
        .contains(TokenLayout.runnable("wf", inst, failed), "/archive/wf/" + inst);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.RUNNING);
    ClaimedJob again = claim();
    assertThat(again.job()).isEqualTo(failed);
    assertThat(
            master.query(Query.prefix(TokenLayout.runnable("wf", inst, failed))).get(0).priority())
        .isEqualTo(priority);
    run(again, 0);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.SUCCESS);
  }

  @Test
  void retryOfAnArchivedInstanceCopiesItWithTheEventsRestored() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")).job(job("b", "a")));
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));
    engine.finish(a, ExecutionResult.exit(0, Map.of("EVENT_ATTR:day", List.of("d1"))));
    run(claim(), 1);
    control.archive(ControlScope.instance("wf", inst));
    assertThat(engine.archiveDue()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));

    ControlResult retried = control.retry("wf", inst);

    String copy = retried.instance().orElseThrow();
    assertThat(copy).isNotEqualTo(inst);
    ClaimedJob b = claim();
    assertThat(b.job()).isEqualTo("b");
    assertThat(b.eventAttributeValues()).containsEntry("day", List.of("d1"));
    assertThat(jobOf(copy, "a").status()).isEqualTo(JobStatus.SUCCESS);
    assertThat(engine.status().instance("wf", copy).orElseThrow().summary().params())
        .containsEntry("retryOf", inst);
  }

  @Test
  void retryOfAnAbortedInstanceNotYetArchivedRunsTheAbortedJobsAgainInPlace() {
    String inst =
        start(WorkflowDefinition.builder("wf").job(job("a")).job(job("b")).job(job("c", "a", "b")));
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));
    control.abort(ControlScope.instance("wf", inst));
    assertThat(engine.claim("w1", LEASE)).isEmpty(); // b is held aborted
    engine.finish(a, ExecutionResult.exit(143, Map.of())); // killed
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.ABORTED);

    ControlResult retried = once(() -> control.retry("wf", inst));

    assertThat(retried.instance()).contains(inst);
    assertThat(retried.tokens())
        .containsExactlyInAnyOrder(
            "/signal/instance/wf/" + inst + "/ABORT",
            TokenLayout.waiting("wf", inst, "a"),
            TokenLayout.runnable("wf", inst, "a"),
            TokenLayout.runnable("wf", inst, "b"),
            TokenLayout.instanceRecord("wf", inst),
            "/archive/wf/" + inst);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.RUNNING);
    assertThat(engine.archiveDue()).as("no longer due for archiving").isZero();
    List<String> rerun = new ArrayList<>(List.of(claim().job(), claim().job()));
    assertThat(rerun).containsExactlyInAnyOrder("a", "b");
    assertThat(jobOf(inst, "a").executions())
        .as("the killed run stays in the history")
        .singleElement()
        .satisfies(e -> assertThat(e.exitCode()).isEqualTo(143));
  }

  @Test
  void retryOfAnInstanceAbortedOnItsWorkflowIsRefusedUntilUnabort() {
    String inst = start(chain());
    control.abort(ControlScope.workflow("wf"));
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.ABORTED);
    Map<String, Token> before = snapshot();

    assertThatThrownBy(() -> control.retry("wf", inst))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("ABORT signal is set on workflow wf")
        .hasMessageContaining("unabort -w wf");
    assertThat(snapshot()).isEqualTo(before);

    control.unabort(ControlScope.workflow("wf"));
    once(() -> control.retry("wf", inst));
    assertThat(claim().job()).isEqualTo("a");
  }

  @Test
  void poisonOfAnArchivedInstanceRunsOnlyThoseJobsInANewInstanceWithTheirEvents() {
    String inst = start(chain());
    ClaimedJob a = claim();
    engine.start(a, new ExecutionStart(a.command(), "host1", Map.of()));
    engine.finish(a, ExecutionResult.exit(0, Map.of("EVENT_ATTR:day", List.of("d1"))));
    run(claim(), 0);
    run(claim(), 0);
    control.archive(ControlScope.instance("wf", inst));
    assertThat(engine.archiveDue()).isEqualTo(1);
    List<Token> archivedBefore = master.queryArchived("/", null, 100);
    clock.advance(Duration.ofSeconds(1));

    ControlResult poisoned = checked(() -> control.poison("wf", inst, List.of("b")));

    String copy = poisoned.instance().orElseThrow();
    assertThat(copy).isNotEqualTo(inst);
    assertThat(poisoned.tokens())
        .containsExactlyInAnyOrder(
            TokenLayout.instanceRecord("wf", copy),
            TokenLayout.waiting("wf", copy, "a"),
            TokenLayout.runnable("wf", copy, "b"),
            TokenLayout.waiting("wf", copy, "c"));
    assertThat(master.queryArchived("/", null, 100))
        .as("the archive is not changed")
        .isEqualTo(archivedBefore);
    assertThat(engine.status().instance("wf", copy).orElseThrow().summary().params())
        .containsEntry("poisonOf", inst);
    ClaimedJob b = claim();
    assertThat(b.job()).isEqualTo("b");
    assertThat(b.eventAttributeValues())
        .as("b runs with the event it had")
        .containsEntry("day", List.of("d1"));
    run(b, 0);
    run(claim(), 0);
    assertThat(engine.claim("w1", LEASE)).as("a is not poisoned: it does not run").isEmpty();
    assertThat(statusOf(copy)).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(jobOf(copy, "a").executions()).as("its history is kept, nothing new").hasSize(1);
    assertThat(jobOf(copy, "c").executions()).hasSize(2);
  }

  @Test
  void poisonWithoutAnInstanceRunsOnlyThoseJobsInANewInstanceOfTheDefinition() {
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("wf")
                    .job(job("a"))
                    .job(job("b"))
                    .job(job("c", "a", "b"))
                    .job(job("d", "c"))
                    .build()));

    ControlResult poisoned = checked(() -> control.poison("wf", List.of("b")));

    String inst = poisoned.instance().orElseThrow();
    assertThat(poisoned.target()).isEqualTo("workflow wf");
    assertThat(poisoned.tokens())
        .containsExactlyInAnyOrder(
            TokenLayout.instanceRecord("wf", inst),
            TokenLayout.waiting("wf", inst, "a"),
            TokenLayout.runnable("wf", inst, "b"),
            TokenLayout.waiting("wf", inst, "c"),
            TokenLayout.event("wf", inst, "c", "a", "poison"),
            TokenLayout.waiting("wf", inst, "d"));
    assertThat(jobOf(inst, "a").status()).isNotEqualTo(JobStatus.RUNNABLE);
    List<String> ran = new ArrayList<>();
    for (Optional<ClaimedJob> next = engine.claim("w1", LEASE);
        next.isPresent();
        next = engine.claim("w1", LEASE)) {
      ran.add(next.get().job());
      run(next.get(), 0);
    }
    assertThat(ran).containsExactly("b", "c", "d");
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.SUCCESS);
    assertThat(jobOf(inst, "a").executions()).isEmpty();
    assertThatThrownBy(() -> control.poison("wf", List.of("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no job 'x'");
    assertThatThrownBy(() -> control.poison("nope", List.of("a")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no workflow 'nope'");
  }

  @Test
  void redoRerunsAnExecutionAtItsPriority() {
    String inst = start(chain());
    run(claim(), 0);
    double priority =
        master.query(Query.prefix(TokenLayout.waiting("wf", inst, "a"))).get(0).priority();

    ControlResult redone = once(() -> control.redo("wf", inst, "a", 1));

    assertThat(redone.tokens())
        .containsExactlyInAnyOrder(
            TokenLayout.waiting("wf", inst, "a"),
            TokenLayout.runnable("wf", inst, "a"),
            TokenLayout.instanceRecord("wf", inst));
    assertThat(master.query(Query.prefix(TokenLayout.runnable("wf", inst, "a"))).get(0).priority())
        .isEqualTo(priority);
    assertThatThrownBy(() -> control.redo("wf", inst, "c", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no execution 1");
  }

  @Test
  void poisonRerunsTheJobAndItsDescendantsOfThisInstanceOnly() {
    String inst = start(chain());
    for (int i = 0; i < 3; i++) {
      run(claim(), 0);
    }
    String other = start(chain());
    Map<String, Token> otherBefore = new TreeMap<>(snapshot());
    otherBefore.keySet().removeIf(name -> !name.contains(other));

    ControlResult poisoned = checked(() -> control.poison("wf", inst, List.of("b")));

    assertThat(poisoned.tokens())
        .containsExactlyInAnyOrder(
            TokenLayout.waiting("wf", inst, "b"),
            TokenLayout.runnable("wf", inst, "b"),
            TokenLayout.waiting("wf", inst, "c"),
            TokenLayout.instanceRecord("wf", inst),
            "/archive/wf/" + inst);
    Map<String, Token> beforeRepeat = snapshot();
    assertThatThrownBy(() -> control.poison("wf", inst, List.of("b")))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("job b")
        .hasMessageContaining("runnable or running");
    assertThat(snapshot()).isEqualTo(beforeRepeat);

    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.RUNNING);
    assertThat(jobOf(inst, "b").status()).isEqualTo(JobStatus.RUNNABLE);
    assertThat(jobOf(inst, "a").status()).isEqualTo(JobStatus.SUCCESS);
    Map<String, Token> otherAfter = new TreeMap<>(snapshot());
    otherAfter.keySet().removeIf(name -> !name.contains(other));
    assertThat(otherAfter).as("the other instance of the workflow").isEqualTo(otherBefore);
    control.stop("wf", other); // out of the way of the claims below
    ClaimedJob b = claim();
    assertThat(b.job()).isEqualTo("b");
    run(b, 0);
    assertThat(claim().job()).as("the descendant runs next").isEqualTo("c");
  }

  @Test
  void poisonOnAThreeLevelInvertedTreeRunsTheJobsGivenAndEverythingBelowThem() {
    // Pinball's analyzer test: four roots, two middle jobs with two inputs each, one bottom job.
    String inst =
        start(
            WorkflowDefinition.builder("wf")
                .job(job("r1"))
                .job(job("r2"))
                .job(job("r3"))
                .job(job("r4"))
                .job(job("m1", "r1", "r2"))
                .job(job("m2", "r3", "r4"))
                .job(job("b", "m1", "m2")));
    assertThat(runEverything()).hasSize(7);

    checked(() -> control.poison("wf", inst, List.of("r1", "r3")));
    assertThat(runEverything())
        .as("every second root: 2 roots and the 3 jobs below")
        .containsExactlyInAnyOrder("r1", "r3", "m1", "m2", "b");
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.SUCCESS);

    checked(() -> control.poison("wf", inst, List.of("r1", "r2", "r3", "r4")));
    assertThat(runEverything()).as("all roots: all 7 jobs").hasSize(7);
    assertThat(jobOf(inst, "b").executions()).hasSize(3);
    assertThat(jobOf(inst, "r2").executions()).hasSize(2);
    assertThat(statusOf(inst)).isEqualTo(InstanceStatus.SUCCESS);
  }

  /** Claims and runs to success whatever is runnable until nothing is; the jobs run, in order. */
  private List<String> runEverything() {
    List<String> ran = new ArrayList<>();
    for (Optional<ClaimedJob> next; (next = engine.claim("w1", LEASE)).isPresent(); ) {
      ran.add(next.get().job());
      run(next.get(), 0);
    }
    return ran;
  }

  @Test
  void disableAndEnable() {
    String inst = start(chain());

    once(() -> control.disable("wf", inst, List.of("b")));
    assertThat(jobOf(inst, "b").disabled()).isTrue();
    once(() -> control.enable("wf", inst, List.of("b")));
    assertThat(jobOf(inst, "b").disabled()).isFalse();
    ClaimedJob a = claim();
    assertThatThrownBy(() -> control.disable("wf", inst, List.of("a")))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("is running");
  }

  @Test
  void reloadTakesTheNewCommandWithoutTouchingTheRest() {
    String inst = start(chain());
    engine
        .definitions()
        .apply(
            List.of(
                WorkflowDefinition.builder("wf")
                    .job(job("a"))
                    .job(job("b", "a").command("new b").maxAttempts(3))
                    .job(job("c", "b"))
                    .build()));

    ControlResult reloaded = once(() -> control.reload("wf", inst, List.of()));

    assertThat(reloaded.tokens()).containsExactly(TokenLayout.waiting("wf", inst, "b"));
    run(claim(), 0);
    assertThat(claim().command()).isEqualTo("new b");
  }

  @Test
  void cleanupDeletesOldArchivedInstancesAndListsTheirLogs() {
    String inst = start(WorkflowDefinition.builder("wf").job(job("a")));
    run(claim(), 0);
    control.archive(ControlScope.workflow("wf"));
    assertThat(engine.archiveDue()).isEqualTo(1);
    assertThatThrownBy(() -> control.cleanup(Duration.ofDays(6)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 7d");
    assertThat(control.cleanup(Duration.ofDays(28)).changes()).isEmpty();
    clock.advance(Duration.ofDays(29));

    ControlResult cleaned = control.cleanup(Duration.ofDays(28));

    assertThat(cleaned.tokens())
        .containsExactly(TokenLayout.instancePrefix("wf", inst), "/archive/wf/" + inst);
    assertThat(cleaned.logUrls()).containsExactly("http://host1/a");
    assertThat(master.queryArchived("/", null, 10)).isEmpty();
    assertThat(control.cleanup(Duration.ofDays(28)).changes()).isEmpty();
  }

  @Test
  void unscheduleDeletesTheScheduleTokenAndRescheduleWritesItFromTheDefinition() {
    WorkflowDefinition scheduled =
        chain().schedule(Schedule.every(Duration.ofHours(1)).maxRunning(2)).build();
    engine.definitions().apply(List.of(scheduled));
    dev.flipper.workflow.schedule.ScheduleTokens.apply(
        master, List.of(scheduled), clock.instant()); // as apply does
    String schedule = "/schedule/workflow/wf";
    assertThat(master.query(Query.prefix(schedule)).get(0).data())
        .contains("\"maxRunningInstances\":2");

    ControlResult unscheduled = once(() -> control.unschedule("wf"));

    assertThat(unscheduled.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo("deleted");
              assertThat(c.token()).isEqualTo(schedule);
              assertThat(c.detail()).contains("every 1h");
            });
    assertThat(master.query(Query.prefix("/schedule/"))).isEmpty();
    assertThat(control.unschedule("wf").notes()).containsExactly("workflow wf has no schedule");

    ControlResult rescheduled = once(() -> control.reschedule("wf"));

    assertThat(rescheduled.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo("added");
              assertThat(c.token()).isEqualTo(schedule);
            });
    assertThat(master.query(Query.prefix(schedule)).get(0).data())
        .contains("\"maxRunningInstances\":2");
    assertThat(control.reschedule("wf").notes())
        .containsExactly("workflow wf is scheduled as its definition says");
  }

  @Test
  void rescheduleIsRefusedWithoutAStoredScheduleAndChangesNothing() {
    engine.definitions().apply(List.of(chain().build()));
    Map<String, Token> before = snapshot();

    assertThatThrownBy(() -> control.reschedule("wf"))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("has no schedule");
    assertThatThrownBy(() -> control.reschedule("nope"))
        .isInstanceOf(ControlRefusedException.class)
        .hasMessageContaining("no stored definition of workflow nope");
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void exitSetsRaisesAndUnexitRemovesTheGlobalExitSignal() {
    String signal = TokenLayout.globalSignal(dev.flipper.workflow.engine.SignalAction.EXIT);

    ControlResult exit = once(() -> control.exit(2));

    assertThat(exit.changes())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.action()).isEqualTo("added");
              assertThat(c.token()).isEqualTo(signal);
              assertThat(c.detail()).isEqualTo("EXIT none -> workers older than generation 2 exit");
            });
    assertThat(exit.notes())
        .contains("alive workers: 0 retiring (they exit after their current jobs), 0 working");
    assertThat(once(() -> control.exit(3)).changes())
        .extracting(ControlResult.Change::action)
        .containsExactly("updated");
    assertThat(new dev.flipper.workflow.fleet.ExitSignal(master, clock).generation()).contains(3);
    assertThatThrownBy(() -> control.exit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generations start at 1");

    ControlResult unexit = once(() -> control.unexit());

    assertThat(unexit.changes())
        .extracting(ControlResult.Change::action, ControlResult.Change::token)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("deleted", signal));
    assertThat(master.query(Query.prefix("/signal/"))).isEmpty();
  }
}
