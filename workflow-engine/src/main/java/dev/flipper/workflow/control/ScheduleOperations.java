package dev.flipper.workflow.control;

import dev.flipper.text.DurationText;
import dev.flipper.text.Readable;
import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.schedule.ScheduleData;
import dev.flipper.workflow.schedule.ScheduleTokens;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.DamagedTokenException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code unschedule} and {@code reschedule} (Pinball's unschedule removes the schedule token):
 * unschedule deletes a workflow's schedule token, so schedulers start no more instances of it; its
 * instances are untouched. Reschedule writes it again from the stored definition's {@code
 * schedule:} block, exactly as {@code apply} would (a new token is placed in time by the first
 * scheduler that claims it). Each is one version-checked change, retried as a whole when a
 * scheduler fires the schedule meanwhile. Thread-safe.
 */
final class ScheduleOperations {
  private final WorkflowEngine engine;
  private final TokenMaster master;
  private final Clock clock;

  ScheduleOperations(WorkflowEngine engine, Clock clock) {
    this.engine = engine;
    this.master = engine.master();
    this.clock = clock;
  }

  ControlResult unschedule(String workflow) {
    ControlScope scope = ControlScope.workflow(workflow);
    return ConflictRetry.run(
        "unschedule " + scope,
        () -> {
          TokenEdit edit = new TokenEdit();
          stored(workflow)
              .ifPresentOrElse(
                  token -> edit.delete(token, describeStored(token)),
                  () -> edit.note("workflow " + workflow + " has no schedule"));
          edit.commit(master);
          return edit.result("unschedule", scope);
        });
  }

  /**
   * @throws ControlRefusedException if the workflow has no stored definition or its definition no
   *     schedule
   */
  ControlResult reschedule(String workflow) {
    ControlScope scope = ControlScope.workflow(workflow);
    WorkflowDefinition definition =
        engine
            .definitions()
            .get(workflow)
            .map(StoredDefinition::definition)
            .orElseThrow(
                () ->
                    new ControlRefusedException(
                        "no stored definition of workflow "
                            + workflow
                            + ": apply it first (flipper workflow apply)"));
    if (definition.schedule().isEmpty()) {
      throw new ControlRefusedException(
          "the definition of workflow "
              + workflow
              + " has no schedule: block;"
              + " add one and apply it");
    }
    return ConflictRetry.run(
        "reschedule " + scope,
        () -> {
          TokenEdit edit = new TokenEdit();
          Instant now = clock.instant();
          ScheduleTokens.Change change = ScheduleTokens.change(definition, stored(workflow), now);
          change
              .update()
              .ifPresent(
                  token -> {
                    String detail = describe(ScheduleTokens.read(token));
                    if (token.version() == Token.NO_VERSION) {
                      edit.add(token, detail + "; the first scheduler places it in time");
                    } else {
                      edit.update(token, detail);
                    }
                  });
          if (change.isNone()) {
            edit.note("workflow " + workflow + " is scheduled as its definition says");
          }
          edit.commit(master);
          return edit.result("reschedule", scope);
        });
  }

  /** What a stored schedule says; unschedule deletes a damaged one too (one way to repair it). */
  private static String describeStored(Token token) {
    try {
      return describe(ScheduleTokens.read(token));
    } catch (DamagedTokenException e) {
      return e.damage().row();
    }
  }

  private Optional<Token> stored(String workflow) {
    String name = ScheduleTokens.name(workflow);
    return master.query(Query.prefix(name)).stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** {@code every 1h, next run 2026-... UTC}: what the token said, for the result. */
  private static String describe(ScheduleData data) {
    String when =
        data.cron != null
            ? "cron " + data.cron + " (" + (data.timezone == null ? "UTC" : data.timezone) + ")"
            : "every "
                + DurationText.format(
                    Duration.ofMillis(data.recurrenceMillis == null ? 0 : data.recurrenceMillis));
    return when
        + ", next run "
        + (data.nextRunMillis == null
            ? "not yet placed"
            : Readable.time(Instant.ofEpochMilli(data.nextRunMillis)));
  }
}
