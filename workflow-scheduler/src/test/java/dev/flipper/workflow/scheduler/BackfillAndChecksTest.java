package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.Query;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.schedule.ScheduleTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackfillAndChecksTest {
  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

  private final MutableClock clock = MutableClock.startingAt(T0.plus(Duration.ofDays(2)));
  private final TokenService master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final FakeEngine engine = new FakeEngine(master, clock);

  /** For backfills that never reach maxRunning: waiting is a failure. */
  private static final BackfillProgress NO_WAIT =
      new BackfillProgress() {
        @Override
        public void started(String instance, Instant slot) {}

        @Override
        public void waitForRoom(int running, int maxRunning, int left) {
          throw new AssertionError("waited with " + running + " running");
        }
      };

  private static WorkflowDefinition daily(String name) {
    return WorkflowDefinition.builder(name)
        .schedule(Schedule.every(Duration.ofDays(1)).start(T0.minus(Duration.ofDays(2000))))
        .job(JobDefinition.builder("a").command("true"))
        .build();
  }

  @Test
  void backfillStartsEachSlotOfThePastRangeAsItsOwnInstance() throws Exception {
    ScheduleTokens.apply(master, List.of(daily("etl")), clock.instant());
    List<String> ids =
        Backfill.run(
            master,
            engine,
            clock,
            "etl",
            T0.minus(Duration.ofDays(3)),
            T0.plus(Duration.ofHours(1)),
            NO_WAIT);
    assertThat(ids).hasSize(4).doesNotHaveDuplicates();
    assertThat(master.query(Query.prefix("/workflow/etl/")))
        .extracting(t -> Instant.parse(t.data()))
        .containsExactlyInAnyOrder(
            T0.minus(Duration.ofDays(3)),
            T0.minus(Duration.ofDays(2)),
            T0.minus(Duration.ofDays(1)),
            T0);
    // A second backfill right away gets other ids.
    assertThat(Backfill.run(master, engine, clock, "etl", T0, T0, NO_WAIT))
        .doesNotContainAnyElementsOf(ids);
  }

  @Test
  void backfillNeverRunsMoreThanMaxRunningAndStartsTheRestAsInstancesEnd() throws Exception {
    WorkflowDefinition two =
        WorkflowDefinition.builder("etl")
            .schedule(
                Schedule.every(Duration.ofDays(1))
                    .start(T0.minus(Duration.ofDays(2000)))
                    .maxRunning(2))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    ScheduleTokens.apply(master, List.of(two), clock.instant());
    engine.running.put("etl", new ArrayList<>(List.of("older")));
    List<Integer> runningAtEachStart = new ArrayList<>();
    List<Integer> waits = new ArrayList<>();
    List<String> ids =
        Backfill.run(
            master,
            engine,
            clock,
            "etl",
            T0.minus(Duration.ofDays(4)),
            T0,
            new BackfillProgress() {
              @Override
              public void started(String instance, Instant slot) {
                engine.running.get("etl").add(instance);
                runningAtEachStart.add(engine.running.get("etl").size());
              }

              @Override
              public void waitForRoom(int running, int maxRunning, int left) {
                waits.add(left);
                engine.running.get("etl").remove(0); // the oldest ends
                clock.advance(Duration.ofSeconds(1));
              }
            });

    assertThat(ids).hasSize(5);
    assertThat(runningAtEachStart).containsExactly(2, 2, 2, 2, 2);
    assertThat(waits).containsExactly(4, 3, 2, 1);
  }

  @Test
  void backfillRefusesTheFutureAnUnscheduledWorkflowAndHugeRanges() {
    ScheduleTokens.apply(master, List.of(daily("etl")), clock.instant());
    assertThatThrownBy(
            () ->
                Backfill.run(
                    master, engine, clock, "etl", T0, clock.instant().plusSeconds(1), NO_WAIT))
        .hasMessageContaining("past slots only");
    assertThatThrownBy(() -> Backfill.run(master, engine, clock, "other", T0, T0, NO_WAIT))
        .hasMessageContaining("has no schedule");
    assertThatThrownBy(
            () ->
                Backfill.run(
                    master, engine, clock, "etl", T0.minus(Duration.ofDays(5000)), T0, NO_WAIT))
        .hasMessageContaining("more than 1000 slots");
    assertThat(master.query(Query.prefix("/workflow/"))).isEmpty();
  }

  /**
   * queue-core's shape check lets {@code L/2} through (a step on "last day"); cron-utils refuses
   * it.
   */
  @Test
  void checksNameWorkflowsWhoseCronTheSchedulerCannotRead() {
    WorkflowDefinition ok =
        WorkflowDefinition.builder("ok")
            .schedule(Schedule.cron("0 3 * * *"))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    WorkflowDefinition odd =
        WorkflowDefinition.builder("odd")
            .schedule(Schedule.cron("0 0 L/2 * *"))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    assertThat(ScheduleChecks.problems(List.of(ok, daily("etl")))).isEmpty();
    assertThat(ScheduleChecks.problems(List.of(ok, odd)))
        .singleElement()
        .asString()
        .startsWith("workflow 'odd': schedule.cron '0 0 L/2 * *' is not valid");
  }
}
