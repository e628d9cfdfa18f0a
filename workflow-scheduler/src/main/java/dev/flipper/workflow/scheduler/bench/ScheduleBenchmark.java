package dev.flipper.workflow.scheduler.bench;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.InstanceStarter;
import dev.flipper.workflow.scheduler.ScheduleNotifier;
import dev.flipper.workflow.scheduler.ScheduleRunner;
import dev.flipper.workflow.scheduler.SchedulerLoop;
import dev.flipper.workflow.scheduler.SchedulerOptions;
import dev.flipper.workflow.scheduler.TokenInstanceStarter;
import dev.flipper.workflow.scheduler.overrun.WorkflowRuns;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fire lateness of many schedules with several schedulers on one master (for {@code flipper bench schedules}):
 * {@code schedules} workflows every second, {@code schedulers} loops on a real clock, for {@code duration}. An
 * "instance" is one token holding its slot, so the figures are the scheduler's own (claim, decide, one modify),
 * not the engine's. Writes under {@code /schedule/workflow/bench-*} and {@code /workflow/bench-*} and deletes
 * those tokens at the end. Not thread-safe.
 */
public final class ScheduleBenchmark {

  /** The outcome: how many slots should have fired, how many did, and how late (ms after the slot). */
  public record Result(int expected, int fired, int duplicates, int missing, long p50Millis, long p99Millis,
      long maxMillis) {
    @Override
    public String toString() {
      return String.format("slots %d, fired %d, duplicates %d, missing %d; lateness p50 %d ms, p99 %d ms, max %d ms",
          expected, fired, duplicates, missing, p50Millis, p99Millis, maxMillis);
    }
  }

  private final TokenMaster master;
  private final Clock clock;

  public ScheduleBenchmark(TokenMaster master, Clock clock) {
    this.master = master;
    this.clock = clock;
  }

  public Result run(int schedules, int schedulers, Duration duration) throws InterruptedException {
    String run = Long.toString(clock.millis(), 36);
    Instant start = clock.instant().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
    List<WorkflowDefinition> definitions = new ArrayList<>();
    for (int i = 0; i < schedules; i++) {
      // catchUp: a slot claimed late (past the next one) still fires instead of being skipped.
      definitions.add(WorkflowDefinition.builder("bench-" + run + "-" + i)
          .schedule(Schedule.every(Duration.ofSeconds(1)).start(start).maxRunning(1_000_000).catchUp(5))
          .job(JobDefinition.builder("a").command("true")).build());
    }
    ScheduleTokens.apply(master, definitions, clock.instant());
    InstanceStarter starter = new SlotTokens(master, clock);
    List<SchedulerLoop> loops = new ArrayList<>();
    for (int s = 0; s < schedulers; s++) {
      ScheduleRunner runner = new ScheduleRunner(master, clock, starter, ScheduleNotifier.none(),
          SchedulerOptions.defaults("bench-scheduler-" + s));
      SchedulerLoop loop = new SchedulerLoop(runner, clock, "bench-scheduler-" + s);
      loops.add(loop);
      loop.start();
    }
    Instant end = start.plus(duration);
    Thread.sleep(Math.max(0, Duration.between(clock.instant(), end).toMillis()) + 3000);
    loops.forEach(SchedulerLoop::close);
    Result result = measure(definitions, start, end);
    cleanUp(definitions);
    return result;
  }

  /** Deletes the run's schedules and instance tokens, so that a later run on the same master starts clean. */
  private void cleanUp(List<WorkflowDefinition> definitions) {
    for (WorkflowDefinition definition : definitions) {
      List<Token> tokens = new ArrayList<>(master.query(Query.prefix(ScheduleTokens.name(definition.name()))));
      tokens.addAll(master.query(Query.prefix("/workflow/" + definition.name() + "/")));
      if (!tokens.isEmpty()) {
        master.modify(new ModifyParams(List.of(), tokens));
      }
    }
  }

  private Result measure(List<WorkflowDefinition> definitions, Instant start, Instant end) {
    List<Long> lateness = new ArrayList<>();
    int expected = 0;
    int fired = 0;
    int duplicates = 0;
    int missing = 0;
    for (WorkflowDefinition definition : definitions) {
      Map<Instant, Integer> counts = new HashMap<>();
      for (Token token : master.query(Query.prefix("/workflow/" + definition.name() + "/"))) {
        Instant slot = Instant.parse(token.data());
        if (slot.isAfter(end)) {
          continue; // fired while the loops were being stopped
        }
        counts.merge(slot, 1, Integer::sum);
        // The instance id is the time it was started, in ms.
        String id = token.name().split("/")[3];
        lateness.add(Long.parseLong(id) - slot.toEpochMilli());
        fired++;
      }
      for (Instant slot = start; !slot.isAfter(end); slot = slot.plusSeconds(1)) {
        expected++;
        int count = counts.getOrDefault(slot, 0);
        missing += count == 0 ? 1 : 0;
        duplicates += Math.max(0, count - 1);
      }
    }
    Collections.sort(lateness);
    return new Result(expected, fired, duplicates, missing, percentile(lateness, 50), percentile(lateness, 99),
        lateness.isEmpty() ? 0 : lateness.get(lateness.size() - 1));
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }

  /** An instance is one token holding its slot. */
  private static final class SlotTokens extends TokenInstanceStarter {
    SlotTokens(TokenMaster master, Clock clock) {
      super(master, clock);
    }

    @Override
    protected String instancePrefix(String workflow, String instanceId) {
      return "/workflow/" + workflow + "/" + instanceId + "/";
    }

    @Override
    public Optional<List<Token>> startTokens(String workflow, String instanceId, Map<String, String> params) {
      return Optional.of(List.of(Token.of("/workflow/" + workflow + "/" + instanceId + "/instance",
          params.get(SCHEDULED_TIME))));
    }

    @Override
    public List<Token> abortTokens(String workflow, String instance) {
      return List.of();
    }

    @Override
    public WorkflowRuns runs(String workflow) {
      return WorkflowRuns.none();
    }
  }
}
