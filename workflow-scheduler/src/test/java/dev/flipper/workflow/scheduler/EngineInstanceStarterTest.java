package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.InstanceStatus;
import dev.flipper.workflow.engine.InstanceSummary;
import dev.flipper.workflow.engine.SignalAction;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.schedule.ScheduleTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduler over the real engine (in-memory master, settable clock): starts, skips and aborts
 * instances.
 */
class EngineInstanceStarterTest {
  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

  private final MutableClock clock = MutableClock.startingAt(T0);
  private final TokenService master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();
  private final ScheduleRunner runner =
      new ScheduleRunner(
          master,
          clock,
          new EngineInstanceStarter(engine, clock),
          ScheduleNotifier.none(),
          SchedulerOptions.defaults("scheduler-1"));

  private void apply(OverrunPolicy policy) {
    WorkflowDefinition etl =
        WorkflowDefinition.builder("etl")
            .schedule(Schedule.every(Duration.ofHours(1)).start(T0).overrun(policy))
            .job(JobDefinition.builder("extract").command("true"))
            .job(JobDefinition.builder("load").needs("extract").command("true"))
            .build();
    engine.definitions().apply(List.of(etl));
    ScheduleTokens.apply(master, List.of(etl), clock.instant());
  }

  @Test
  void aDueScheduleStartsAnEngineInstanceWithItsSlot() {
    apply(OverrunPolicy.SKIP);
    runner.runOnce();
    List<InstanceSummary> instances = engine.status().instances("etl");
    assertThat(instances)
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.status()).isEqualTo(InstanceStatus.RUNNING);
              assertThat(i.startedBy()).isEqualTo("scheduler");
              assertThat(i.params()).containsEntry(InstanceStarter.SCHEDULED_TIME, T0.toString());
            });
  }

  @Test
  void skipSeesTheEnginesRunningInstance() {
    apply(OverrunPolicy.SKIP);
    runner.runOnce();
    clock.set(T0.plus(Duration.ofHours(1)));
    runner.runOnce(); // nothing ran the first instance's jobs: it still runs
    assertThat(engine.status().instances("etl")).hasSize(1);
  }

  @Test
  void abortRunningSignalsTheRunningInstanceOnceAndStarts() {
    apply(OverrunPolicy.ABORT_RUNNING);
    runner.runOnce();
    String first = engine.status().instances("etl").get(0).instance();
    clock.set(T0.plus(Duration.ofHours(1)));
    runner.runOnce();
    assertThat(engine.signals("etl", first)).contains(SignalAction.ABORT);
    clock.set(T0.plus(Duration.ofHours(2)));
    runner.runOnce(); // the first is still aborting; its signal is not written again
    assertThat(engine.status().instances("etl")).hasSize(3);
  }

  @Test
  void aClaimedBatchStartsEveryInstanceInOneChangeAndSeesRunningOnesThroughItsOneRead() {
    List<WorkflowDefinition> definitions =
        List.of(
            hourly("a", OverrunPolicy.SKIP),
            hourly("b", OverrunPolicy.SKIP),
            hourly("c", OverrunPolicy.START_NEW));
    engine.definitions().apply(definitions);
    ScheduleTokens.apply(master, definitions, clock.instant());
    WorkflowDefinition ghost =
        WorkflowDefinition.builder("ghost") // scheduled, not stored: fails the batch
            .schedule(Schedule.every(Duration.ofHours(1)).start(T0))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    runner.runOnce();
    ScheduleTokens.apply(master, List.of(ghost), clock.instant());
    clock.set(T0.plus(Duration.ofHours(1)));
    runner.runOnce(); // a and b still run (SKIP), c starts its second (START_NEW), ghost waits

    assertThat(engine.status().instances("a")).hasSize(1);
    assertThat(engine.status().instances("b")).hasSize(1);
    assertThat(engine.status().instances("c"))
        .extracting(i -> i.params().get(InstanceStarter.SCHEDULED_TIME))
        .containsExactlyInAnyOrder(T0.toString(), T0.plus(Duration.ofHours(1)).toString());
    assertThat(engine.status().instances("ghost")).isEmpty();
    ScheduleTokens.unschedule(master, "ghost");
    clock.set(T0.plus(Duration.ofHours(2)));
    engine
        .definitions()
        .apply(
            List.of(
                hourly("a", OverrunPolicy.START_NEW),
                hourly("b", OverrunPolicy.START_NEW),
                hourly("c", OverrunPolicy.START_NEW)));
    ScheduleTokens.apply(
        master,
        List.of(
            hourly("a", OverrunPolicy.START_NEW),
            hourly("b", OverrunPolicy.START_NEW),
            hourly("c", OverrunPolicy.START_NEW)),
        clock.instant());
    runner.runOnce(); // a batch of three through the batch read, in one change: one instance id for
    // all
    List<String> third =
        List.of("a", "b", "c").stream()
            .map(
                w ->
                    engine.status().instances(w).stream()
                        .filter(
                            i ->
                                i.params()
                                    .get(InstanceStarter.SCHEDULED_TIME)
                                    .equals(T0.plus(Duration.ofHours(2)).toString()))
                        .findFirst()
                        .orElseThrow()
                        .instance())
            .toList();
    assertThat(third).containsOnly(third.get(0));
  }

  private static WorkflowDefinition hourly(String name, OverrunPolicy policy) {
    return WorkflowDefinition.builder(name)
        .schedule(Schedule.every(Duration.ofHours(1)).start(T0).overrun(policy))
        .job(JobDefinition.builder("x").command("true"))
        .build();
  }

  @Test
  void aScheduleWhoseWorkflowIsNotStoredWaits() {
    WorkflowDefinition ghost =
        WorkflowDefinition.builder("ghost")
            .schedule(Schedule.every(Duration.ofHours(1)).start(T0))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    ScheduleTokens.apply(master, List.of(ghost), clock.instant());
    runner.runOnce();
    assertThat(engine.status().instances("ghost")).isEmpty();
    engine.definitions().apply(List.of(ghost));
    clock.set(T0.plusSeconds(30));
    runner.runOnce();
    assertThat(engine.status().instances("ghost"))
        .singleElement()
        .satisfies(
            i ->
                assertThat(i.params())
                    .containsEntry(InstanceStarter.SCHEDULED_TIME, T0.toString()));
  }
}
