package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.time.CronRecurrence;
import dev.flipper.workflow.scheduler.time.EveryRecurrence;
import dev.flipper.workflow.scheduler.time.Recurrence;
import dev.flipper.workflow.scheduler.time.Slots;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 3 schedulers on 3 threads (over a fake engine), or 8 over the real engine (whose claimed batches
 * start in one change), share one master and 20 schedules; simulated time moves in uneven steps
 * (0.1 to 0.9 s), and after each step every scheduler runs until nothing is due. Every slot must
 * have fired exactly once. Leases are whole seconds, so a slot may be claimed up to a second late,
 * by which time the next slot of a fast schedule may be due too: {@code catchUp: 3} fires such late
 * slots instead of skipping them.
 */
@Tag("slow")
class ConcurrentSchedulersTest {
  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");
  private static final int SCHEDULES = 20;
  private static final Duration RUN = Duration.ofSeconds(120);

  @ParameterizedTest(name = "steps from seed {0}")
  @ValueSource(longs = {42, 7, 2026})
  void everySlotFiresExactlyOnce(long seed) throws Exception {
    MutableClock clock = MutableClock.startingAt(T0);
    TokenService master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    FakeEngine engine = new FakeEngine(master, clock);
    Map<String, List<Instant>> fired = run(seed, 3, master, clock, engine, List.of());
    List<Token> instances = master.query(Query.prefix("/workflow/"));
    assertThat(instances).hasSize(fired.values().stream().mapToInt(List::size).sum());
  }

  @ParameterizedTest(name = "steps from seed {0}")
  @ValueSource(longs = {42, 2026})
  void everySlotFiresExactlyOnceWithEightSchedulersOverTheEngine(long seed) throws Exception {
    MutableClock clock = MutableClock.startingAt(T0);
    TokenService master = TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
    WorkflowEngine engine = WorkflowEngine.builder(master).clock(clock).build();
    run(seed, 8, master, clock, new EngineInstanceStarter(engine, clock), List.of(engine));
  }

  /**
   * Runs {@code schedulers} threads over 20 schedules for 120 s of simulated time, checks every
   * slot fired once, and returns the fired slots by workflow. {@code engines}: one to store the
   * definitions in and read the instances from, or none to read the fake engine's instance tokens.
   */
  private static Map<String, List<Instant>> run(
      long seed,
      int schedulers,
      TokenService master,
      MutableClock clock,
      InstanceStarter starter,
      List<WorkflowEngine> engines)
      throws Exception {
    Map<String, Recurrence> recurrences = new TreeMap<>();
    List<WorkflowDefinition> definitions = new ArrayList<>();
    for (int i = 0; i < SCHEDULES; i++) {
      String name = "wf" + i;
      Schedule.Builder schedule;
      if (i % 4 == 3) {
        String cron = i % 8 == 3 ? "* * * * * *" : "*/2 * * * * *";
        schedule = Schedule.cron(cron);
        recurrences.put(name, CronRecurrence.parse(cron, ZoneOffset.UTC));
      } else {
        Duration every = Duration.ofMillis(1000 + 250L * (i % 5));
        Instant start = T0.minusMillis(37L * i);
        schedule = Schedule.every(every).start(start);
        recurrences.put(name, new EveryRecurrence(start, every));
      }
      definitions.add(
          WorkflowDefinition.builder(name)
              .schedule(schedule.overrun(OverrunPolicy.START_NEW).maxRunning(1000).catchUp(3))
              .job(JobDefinition.builder("a").command("true"))
              .build());
    }
    engines.forEach(e -> e.definitions().apply(definitions));
    ScheduleTokens.apply(master, definitions, T0);

    Phaser steps = new Phaser(schedulers + 1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int s = 0; s < schedulers; s++) {
      ScheduleRunner runner =
          new ScheduleRunner(
              master,
              clock,
              starter,
              ScheduleNotifier.none(),
              SchedulerOptions.defaults("scheduler-" + s).withBatchSize(4));
      Thread thread =
          new Thread(
              () -> {
                try {
                  while (true) {
                    int phase = steps.arriveAndAwaitAdvance(); // wait for the clock to move
                    if (phase < 0 || steps.isTerminated()) {
                      return;
                    }
                    while (!runner.runOnce().isAfter(clock.instant())) {
                      // more is due
                    }
                    steps.arriveAndAwaitAdvance(); // this step is done
                  }
                } catch (Throwable t) {
                  failure.compareAndSet(null, t);
                  steps.forceTermination();
                }
              },
              "scheduler-" + s);
      thread.start();
      threads.add(thread);
    }
    Random random = new Random(seed);
    Instant lastPass;
    do {
      lastPass = clock.instant();
      steps.arriveAndAwaitAdvance(); // let them run at this time
      steps.arriveAndAwaitAdvance(); // wait until they are done
      clock.advanceMillis(100 + random.nextInt(800));
    } while (lastPass.isBefore(T0.plus(RUN)) && failure.get() == null);
    steps.forceTermination();
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    }
    assertThat(failure.get()).isNull();

    Map<String, List<Instant>> fired = new TreeMap<>();
    if (engines.isEmpty()) {
      fired.putAll(
          master.query(Query.prefix("/workflow/")).stream()
              .collect(
                  Collectors.groupingBy(
                      t -> t.name().split("/")[2],
                      Collectors.mapping(t -> Instant.parse(t.data()), Collectors.toList()))));
    } else {
      for (String workflow : recurrences.keySet()) {
        fired.put(
            workflow,
            engines.get(0).status().instances(workflow).stream()
                .map(i -> Instant.parse(i.params().get(InstanceStarter.SCHEDULED_TIME)))
                .toList());
      }
    }
    int total = 0;
    for (Map.Entry<String, Recurrence> entry : recurrences.entrySet()) {
      // A slot is claimable once the master's clock, in whole seconds, has passed it (its lease
      // end).
      Instant claimable = lastPass;
      List<Instant> expected =
          Slots.between(entry.getValue(), T0, lastPass, 100_000).stream()
              .filter(
                  slot ->
                      ScheduleTokens.leaseEnd(slot.toEpochMilli()) <= claimable.getEpochSecond())
              .toList();
      List<Instant> actual =
          fired.getOrDefault(entry.getKey(), List.of()).stream().sorted().toList();
      assertThat(actual)
          .as("slots of %s", entry.getKey())
          .doesNotHaveDuplicates()
          .isEqualTo(expected);
      total += actual.size();
    }
    assertThat(total).isGreaterThan(SCHEDULES * 50);
    return fired;
  }
}
