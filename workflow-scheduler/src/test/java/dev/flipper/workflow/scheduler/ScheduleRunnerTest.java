package dev.flipper.workflow.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.queue.testing.MutableClock;
import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.QueryAndOwnParams;
import dev.flipper.token.Token;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.scheduler.overrun.InstanceOutcome;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The scheduler over an in-memory master with a clock that moves only when the test says (no
 * sleeps).
 */
class ScheduleRunnerTest {
  private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");
  private static final Duration RECHECK = Duration.ofSeconds(30);

  private final MutableClock clock = MutableClock.startingAt(T0);
  private final TokenService master =
      TokenService.builder(InMemoryTokenStore.create()).clock(clock).build();
  private final FakeEngine engine = new FakeEngine(master, clock);
  private final List<String> mails = new CopyOnWriteArrayList<>();
  private final ScheduleNotifier notifier =
      (wf, running, max, slot, to) ->
          mails.add(wf + " " + running + "/" + max + " " + slot + " " + to);

  private ScheduleRunner runner(String owner) {
    return new ScheduleRunner(
        master, clock, engine, notifier, SchedulerOptions.defaults(owner).withRecheck(RECHECK));
  }

  private void apply(WorkflowDefinition... definitions) {
    ScheduleTokens.apply(master, List.of(definitions), clock.instant());
  }

  private static WorkflowDefinition every(
      String name, Duration every, OverrunPolicy policy, int maxRunning, int catchUp) {
    return WorkflowDefinition.builder(name)
        .emails(name + "@example.com")
        .schedule(
            Schedule.every(every).start(T0).overrun(policy).maxRunning(maxRunning).catchUp(catchUp))
        .job(JobDefinition.builder("a").command("true"))
        .build();
  }

  private static WorkflowDefinition hourly(String name, OverrunPolicy policy) {
    return every(name, Duration.ofHours(1), policy, 3, 0);
  }

  /** Slots of started instances of {@code workflow}, in start order. */
  private List<Instant> started(String workflow) {
    List<Token> instances = master.query(Query.prefix("/workflow/" + workflow + "/"));
    return instances.stream().map(t -> Instant.parse(t.data())).sorted().toList();
  }

  private ScheduleData schedule(String workflow) {
    return ScheduleTokens.read(master.query(Query.prefix(ScheduleTokens.name(workflow))).get(0));
  }

  private void at(String time) {
    clock.set(Instant.parse("2026-11-24T" + time + "Z"));
  }

  private static Instant slot(String time) {
    return Instant.parse("2026-11-24T" + time + "Z");
  }

  @Test
  void aScheduleFiresAtItsTimeNotBeforeAndOnce() {
    ScheduleRunner a = runner("s1");
    ScheduleRunner b = runner("s2");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce(); // places it in time: the first slot at or after the apply is T0 itself
    assertThat(started("etl")).containsExactly(T0);
    at("00:59:59");
    a.runOnce();
    b.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    at("01:00:00");
    b.runOnce();
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"));
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("02:00:00").toEpochMilli());
    Token token = master.query(Query.prefix(ScheduleTokens.name("etl"))).get(0);
    assertThat(token.expirationTime())
        .isEqualTo(slot("02:00:00").getEpochSecond()); // leased until the next run
    assertThat(token.owner()).isIn("s1", "s2");
    assertThat(a.startedCount() + b.startedCount()).isEqualTo(2);
  }

  @Test
  void aScheduleClaimedBeforeItsTimeStartsNothingAndIsLeasedUntilThen() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce();
    // Hand-edited (or from a master with another clock): claimable although its next run is an hour
    // away.
    Token token = master.query(Query.prefix(ScheduleTokens.name("etl"))).get(0);
    master.modify(ModifyParams.updating(token.withoutOwner()));
    at("00:10:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    Token after = master.query(Query.prefix(ScheduleTokens.name("etl"))).get(0);
    assertThat(after.expirationTime()).isEqualTo(slot("01:00:00").getEpochSecond());
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("01:00:00").toEpochMilli());
  }

  @Test
  void theRunnerSaysWhenTheNextScheduleIsDue() {
    ScheduleRunner a = runner("s1");
    apply(
        every("fast", Duration.ofSeconds(10), OverrunPolicy.SKIP, 3, 0),
        hourly("slow", OverrunPolicy.SKIP));
    a.runOnce();
    at("00:00:03");
    assertThat(a.runOnce()).isEqualTo(slot("00:00:04")); // at most maxSleep (1 s) away
    at("00:00:09.500");
    assertThat(a.runOnce()).isEqualTo(slot("00:00:10"));
  }

  @Test
  void theInstanceAndTheAdvanceAreOneChangeSoAScheduleChangedMeanwhileStartsNothing() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce();
    at("01:00:00");
    // Someone rewrites the schedule between the claim and the modify (an apply, say).
    engine.beforeStart =
        () -> {
          Token current = master.query(Query.prefix(ScheduleTokens.name("etl"))).get(0);
          master.modify(ModifyParams.updating(current.withData(current.data())));
        };
    a.runOnce();
    engine.beforeStart = () -> {};
    assertThat(started("etl")).containsExactly(T0);
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("01:00:00").toEpochMilli());
  }

  @Test
  void aBatchIsOneModifyAndAConflictInItFallsBackToOneByOne() {
    ScheduleRunner a = runner("s1");
    apply(hourly("a", OverrunPolicy.SKIP), hourly("b", OverrunPolicy.SKIP));
    a.runOnce();
    assertThat(started("a")).hasSize(1);
    assertThat(started("b")).hasSize(1);
    at("01:00:00");
    java.util.concurrent.atomic.AtomicBoolean once =
        new java.util.concurrent.atomic.AtomicBoolean();
    engine.beforeStart =
        () -> {
          if (once.compareAndSet(
              false, true)) { // while the batch is planned, someone rewrites a's schedule
            Token current = master.query(Query.prefix(ScheduleTokens.name("a"))).get(0);
            master.modify(ModifyParams.updating(current.withData(current.data())));
          }
        };
    a.runOnce();
    assertThat(started("a")).containsExactly(T0); // its schedule changed: nothing started for it
    assertThat(started("b")).containsExactly(T0, slot("01:00:00"));
  }

  @Test
  void aSchedulerThatDiesHoldingAClaimLeavesItToAnotherAfterTheLease() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce();
    at("01:00:00");
    List<Token> claimedByTheDead =
        master.queryAndOwn(
            QueryAndOwnParams.of(
                "dead", clock.instant().plusSeconds(60), Query.prefix(ScheduleTokens.PREFIX)));
    assertThat(claimedByTheDead).hasSize(1);
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    at("01:01:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"));
  }

  @Test
  void missedSlotsAreSkippedByDefaultAndCaughtUpWithCatchUp() {
    ScheduleRunner a = runner("s1");
    apply(
        hourly("skip", OverrunPolicy.START_NEW),
        every("catch", Duration.ofHours(1), OverrunPolicy.START_NEW, 10, 2));
    a.runOnce();
    at("05:30:00"); // down from 00:00 to 05:30
    while (!a.runOnce().isAfter(clock.instant())) {
      // passes until nothing is due
    }
    assertThat(started("skip")).containsExactly(T0, slot("05:00:00"));
    assertThat(started("catch"))
        .containsExactly(T0, slot("03:00:00"), slot("04:00:00"), slot("05:00:00"));
    assertThat(schedule("catch").nextRunMillis).isEqualTo(slot("06:00:00").toEpochMilli());
  }

  @Test
  void skipAdvancesWithoutStartingWhileAnInstanceRuns() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce();
    engine.running.put("etl", List.of("1"));
    at("01:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("02:00:00").toEpochMilli());
    engine.running.remove("etl");
    at("02:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("02:00:00"));
  }

  @Test
  void delayKeepsTheSlotAndStartsItOnceTheRunningInstanceEnds() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.DELAY));
    a.runOnce();
    engine.running.put("etl", List.of("1"));
    at("01:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    assertThat(schedule("etl").nextRunMillis)
        .isEqualTo(slot("01:00:00").toEpochMilli()); // not advanced
    engine.running.remove("etl");
    at("01:00:29");
    a.runOnce();
    assertThat(started("etl")).hasSize(1); // looked at again only after RECHECK
    at("01:00:30");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00")); // the delayed slot, late
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("02:00:00").toEpochMilli());
  }

  @Test
  void delayUntilSuccessWaitsAfterAFailureUntilSomeoneFixesIt() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.DELAY_UNTIL_SUCCESS));
    a.runOnce();
    engine.lastFinished.put("etl", InstanceOutcome.FAILURE);
    at("01:00:00");
    a.runOnce();
    at("03:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("01:00:00").toEpochMilli());
    engine.lastFinished.put("etl", InstanceOutcome.SUCCESS); // retried and succeeded
    at("03:00:30");
    a.runOnce();
    // The waiting slot was 01:00; with catchUp 0 the latest due slot (03:00) runs and the rest are
    // skipped.
    assertThat(started("etl")).containsExactly(T0, slot("03:00:00"));
  }

  @Test
  void abortRunningAbortsEveryRunningInstanceInTheSameChangeAsTheStart() {
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.ABORT_RUNNING));
    a.runOnce();
    engine.running.put("etl", List.of("11", "12"));
    at("01:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"));
    assertThat(master.query(Query.prefix("/signal/")))
        .extracting(Token::name)
        .containsExactly("/signal/instance/etl/11/ABORT", "/signal/instance/etl/12/ABORT");
  }

  @Test
  void abortRunningStartsAgainWhileAnEarlierAbortIsStillUnderWay() {
    engine.master = master;
    ScheduleRunner a = runner("s1");
    apply(hourly("etl", OverrunPolicy.ABORT_RUNNING));
    a.runOnce();
    engine.running.put("etl", List.of("11"));
    at("01:00:00");
    a.runOnce();
    at("02:00:00"); // instance 11 still has not stopped
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"), slot("02:00:00"));
    assertThat(master.query(Query.prefix("/signal/"))).hasSize(1);
  }

  @Test
  void startNewStopsExactlyAtMaxRunningAndMailsOncePerSlot() {
    ScheduleRunner a = runner("s1");
    apply(every("etl", Duration.ofHours(1), OverrunPolicy.START_NEW, 2, 0));
    a.runOnce();
    engine.running.put("etl", List.of("1"));
    at("01:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"));
    engine.running.put("etl", List.of("1", "2"));
    at("02:00:00");
    a.runOnce();
    assertThat(started("etl")).hasSize(2);
    assertThat(schedule("etl").nextRunMillis).isEqualTo(slot("02:00:00").toEpochMilli());
    assertThat(mails).containsExactly("etl 2/2 " + slot("02:00:00") + " [etl@example.com]");
    at("02:00:30");
    a.runOnce();
    assertThat(mails).hasSize(1); // still blocked, same slot: no second mail
    engine.running.put("etl", List.of("2"));
    at("02:01:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0, slot("01:00:00"), slot("02:00:00"));
  }

  @Test
  void aScheduledWorkflowWithoutDefinitionWaitsAndUnscheduleStopsIt() {
    ScheduleRunner a = runner("s1");
    engine.missing.add("etl");
    apply(hourly("etl", OverrunPolicy.SKIP));
    a.runOnce();
    assertThat(started("etl")).isEmpty();
    assertThat(schedule("etl").nextRunMillis).isEqualTo(T0.toEpochMilli());
    engine.missing.clear();
    at("00:00:30");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
    assertThat(ScheduleTokens.unschedule(master, "etl")).isTrue();
    at("05:00:00");
    a.runOnce();
    assertThat(started("etl")).containsExactly(T0);
  }

  @Test
  void aScheduleThatNeverFiresIsParked() {
    ScheduleRunner a = runner("s1");
    apply(
        WorkflowDefinition.builder("feb30")
            .schedule(Schedule.cron("0 0 30 2 *"))
            .job(JobDefinition.builder("a").command("true"))
            .build());
    a.runOnce();
    Token token = master.query(Query.prefix(ScheduleTokens.name("feb30"))).get(0);
    assertThat(token.expirationTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(a.runOnce())
        .isEqualTo(clock.instant().plusSeconds(1)); // nothing due; sleeps its longest
    assertThat(started("feb30")).isEmpty();
  }

  @Test
  void cronInBerlinFiresOnceOnBothTransitionDays() {
    clock.set(Instant.parse("2026-03-28T12:00:00Z"));
    ScheduleRunner a = runner("s1");
    apply(
        WorkflowDefinition.builder("nightly")
            .schedule(Schedule.cron("30 2 * * *").timezone(ZoneId.of("Europe/Berlin")))
            .job(JobDefinition.builder("a").command("true"))
            .build());
    List<Instant> fired = new ArrayList<>();
    for (Instant t = clock.instant();
        t.isBefore(Instant.parse("2026-03-30T12:00:00Z"));
        t = t.plusSeconds(600)) {
      clock.set(t);
      a.runOnce();
    }
    fired.addAll(started("nightly"));
    assertThat(fired)
        .containsExactly(
            Instant.parse("2026-03-29T01:00:00Z"), Instant.parse("2026-03-30T00:30:00Z"));
  }
}
