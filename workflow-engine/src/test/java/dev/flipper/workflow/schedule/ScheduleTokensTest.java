package dev.flipper.workflow.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flipper.token.ModifyParams;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.OverrunPolicy;
import dev.flipper.workflow.definition.Schedule;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.tokens.DamagedTokenException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleTokensTest {
  private static final Instant NOW = Instant.parse("2026-11-24T02:00:00Z");

  private static WorkflowDefinition hourly(String name, OverrunPolicy policy) {
    return WorkflowDefinition.builder(name)
        .emails("data@example.com")
        .schedule(Schedule.every(Duration.ofHours(1)).overrun(policy))
        .job(JobDefinition.builder("a").command("true"))
        .build();
  }

  private static Token stored(Token written, long version) {
    return written.withVersion(version);
  }

  @Test
  void aNewScheduleIsInsertedClaimableAtOnceWithItsDefinition() {
    ScheduleTokens.Change change =
        ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.empty(), NOW);
    Token token = change.update().orElseThrow();
    assertThat(token.name()).isEqualTo("/schedule/workflow/etl");
    assertThat(token.hasVersion()).isFalse();
    assertThat(token.owner()).isEqualTo("parser");
    assertThat(token.isOwnedAt(NOW)).isFalse(); // the first scheduler to see it places it in time
    ScheduleData data = ScheduleTokens.read(token);
    assertThat(data.kind).isEqualTo("schedule");
    assertThat(data.recurrenceMillis).isEqualTo(3_600_000L);
    assertThat(data.startMillis).isEqualTo(NOW.toEpochMilli());
    assertThat(data.nextRunMillis).isNull();
    assertThat(data.emails).containsExactly("data@example.com");
    assertThat(token.data())
        .contains(
            "\"kind\":\"schedule\"",
            "\"schema\":1",
            "\"overrunPolicy\":\"SKIP\"",
            "\"maxRunningInstances\":3");
  }

  /** Issue #25: applying the definition again is how a damaged schedule token is repaired. */
  @Test
  void aDamagedScheduleIsRewrittenFromTheDefinitionInPlace() {
    Token damaged = new Token(9, "/schedule/workflow/etl", "parser", 0, 0, "{\"nextRunMillis\": ");
    assertThatThrownBy(() -> ScheduleTokens.read(damaged))
        .isInstanceOfSatisfying(
            DamagedTokenException.class,
            e -> assertThat(e.damage().name()).isEqualTo("/schedule/workflow/etl"))
        .hasMessageStartingWith("/schedule/workflow/etl is damaged: not schedule JSON: ");

    Token rewritten =
        ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.of(damaged), NOW)
            .update()
            .orElseThrow();

    assertThat(rewritten.version()).isEqualTo(9);
    assertThat(rewritten.name()).isEqualTo("/schedule/workflow/etl");
    assertThat(rewritten.isOwnedAt(NOW)).isFalse();
    assertThat(ScheduleTokens.read(rewritten).recurrenceMillis).isEqualTo(3_600_000L);
  }

  @Test
  void anUnchangedScheduleIsNotRewrittenEvenLaterAndPlacedInTime() {
    Token first =
        stored(
            ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.empty(), NOW)
                .update()
                .orElseThrow(),
            7);
    ScheduleData placed = ScheduleTokens.read(first);
    placed.nextRunMillis = NOW.plus(Duration.ofHours(5)).toEpochMilli();
    Token scheduled = first.withData(ScheduleTokens.write(placed));
    assertThat(
            ScheduleTokens.change(
                    hourly("etl", OverrunPolicy.SKIP),
                    Optional.of(scheduled),
                    NOW.plus(Duration.ofDays(3)))
                .isNone())
        .isTrue();
  }

  @Test
  void aPolicyChangeKeepsTheNextRunAndThePhase() {
    Token first =
        stored(
            ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.empty(), NOW)
                .update()
                .orElseThrow(),
            7);
    ScheduleData placed = ScheduleTokens.read(first);
    placed.nextRunMillis = NOW.plus(Duration.ofHours(5)).toEpochMilli();
    placed.unknown("fromANewerRelease", "kept");
    Token scheduled = first.withData(ScheduleTokens.write(placed));
    Token rewritten =
        ScheduleTokens.change(
                hourly("etl", OverrunPolicy.DELAY), Optional.of(scheduled), NOW.plusSeconds(90))
            .update()
            .orElseThrow();
    assertThat(rewritten.version()).isEqualTo(7);
    ScheduleData data = ScheduleTokens.read(rewritten);
    assertThat(data.overrunPolicy).isEqualTo("DELAY");
    assertThat(data.nextRunMillis).isEqualTo(placed.nextRunMillis);
    assertThat(data.startMillis).isEqualTo(NOW.toEpochMilli());
    assertThat(rewritten.expirationTime())
        .isEqualTo(NOW.plus(Duration.ofHours(5)).getEpochSecond());
    assertThat(rewritten.data()).contains("\"fromANewerRelease\":\"kept\"");
  }

  @Test
  void aTimingChangeIsPlacedInTimeAgain() {
    Token first =
        stored(
            ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.empty(), NOW)
                .update()
                .orElseThrow(),
            7);
    ScheduleData placed = ScheduleTokens.read(first);
    placed.nextRunMillis = NOW.plus(Duration.ofHours(5)).toEpochMilli();
    WorkflowDefinition cron =
        WorkflowDefinition.builder("etl")
            .emails("data@example.com")
            .schedule(Schedule.cron("0 3 * * *").timezone(ZoneId.of("Europe/Berlin")))
            .job(JobDefinition.builder("a").command("true"))
            .build();
    Token rewritten =
        ScheduleTokens.change(cron, Optional.of(first.withData(ScheduleTokens.write(placed))), NOW)
            .update()
            .orElseThrow();
    ScheduleData data = ScheduleTokens.read(rewritten);
    assertThat(data.nextRunMillis).isNull();
    assertThat(data.cron).isEqualTo("0 3 * * *");
    assertThat(data.timezone).isEqualTo("Europe/Berlin");
    assertThat(rewritten.expirationTime()).isZero();
  }

  @Test
  void aDefinitionWithoutScheduleDeletesItsToken() {
    Token stored =
        stored(
            ScheduleTokens.change(hourly("etl", OverrunPolicy.SKIP), Optional.empty(), NOW)
                .update()
                .orElseThrow(),
            7);
    WorkflowDefinition manual =
        WorkflowDefinition.builder("etl").job(JobDefinition.builder("a").command("true")).build();
    assertThat(ScheduleTokens.change(manual, Optional.of(stored), NOW).delete()).contains(stored);
    assertThat(ScheduleTokens.change(manual, Optional.empty(), NOW).isNone()).isTrue();
  }

  @Test
  void applyWritesOnlyChangedSchedulesInOneModifyAndUnscheduleRemovesOne() {
    TokenMaster master = TokenService.builder(InMemoryTokenStore.create()).build();
    assertThat(
            ScheduleTokens.apply(
                master,
                List.of(hourly("a", OverrunPolicy.SKIP), hourly("b", OverrunPolicy.SKIP)),
                NOW))
        .containsExactly("a", "b");
    List<Token> before = master.query(Query.prefix(ScheduleTokens.PREFIX));
    assertThat(
            ScheduleTokens.apply(
                master,
                List.of(hourly("a", OverrunPolicy.SKIP), hourly("b", OverrunPolicy.DELAY)),
                NOW.plusSeconds(5)))
        .containsExactly("b");
    List<Token> after = master.query(Query.prefix(ScheduleTokens.PREFIX));
    assertThat(after.get(0)).isEqualTo(before.get(0)); // a: not rewritten, same version
    assertThat(after.get(1).version()).isNotEqualTo(before.get(1).version());
    assertThat(ScheduleTokens.unschedule(master, "a")).isTrue();
    assertThat(ScheduleTokens.unschedule(master, "a")).isFalse();
    assertThat(master.query(Query.prefix(ScheduleTokens.PREFIX)))
        .extracting(Token::name)
        .containsExactly("/schedule/workflow/b");
    master.modify(ModifyParams.deleting(master.query(Query.prefix("/schedule/workflow/b")).get(0)));
  }
}
