package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.Query;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.schedule.ScheduleTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The loop on a real clock: a schedule every second fires about every second, woken by due times.
 */
class SchedulerLoopTest {

  @Test
  @Tag("slow")
  void firesEverySecondAndStopsOnClose() {
    Clock clock = Clock.systemUTC();
    TokenService master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    FakeEngine engine = new FakeEngine(master, clock);
    ScheduleRunner runner =
        new ScheduleRunner(
            master,
            clock,
            engine,
            ScheduleNotifier.none(),
            new SchedulerOptions(
                "loop-test",
                Duration.ofSeconds(60),
                60,
                Duration.ofSeconds(30),
                Duration.ofSeconds(5)));
    try (SchedulerLoop loop = new SchedulerLoop(runner, clock, "scheduler-loop-test")) {
      loop.start();
      ScheduleTokens.apply(
          master,
          List.of(
              WorkflowDefinition.builder("tick")
                  .schedule(
                      Schedule.every(Duration.ofSeconds(1))
                          .start(Instant.parse("2026-01-01T00:00:00Z")))
                  .job(JobDefinition.builder("a").command("true"))
                  .build()),
          clock.instant());
      loop.wake();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> master.query(Query.prefix("/workflow/tick/")).size() >= 3);
    }
    int after = master.query(Query.prefix("/workflow/tick/")).size();
    assertThat(runner.startedCount()).isEqualTo(after);
  }
}
