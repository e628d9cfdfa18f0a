package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.ExecutionData;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code redo} of one execution of one job (docs/workflows.md, "Control operations"): the waiting
 * job becomes runnable with that execution's events, so it runs again with the same inputs, and
 * keeps its priority (Pinball dropped it). An ended instance is RUNNING again (within the {@link
 * RunningLimit}). A job that is runnable or running is left alone, so a second identical call
 * changes nothing. One modify. Thread-safe.
 */
final class RedoOperation {
  private final WorkflowEngine engine;

  RedoOperation(WorkflowEngine engine) {
    this.engine = engine;
  }

  ControlResult redo(String workflow, String instance, String job, int execution) {
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run(
        "redo " + scope,
        () -> {
          InstanceTokens tokens = InstanceTokens.require(engine.master(), workflow, instance);
          Token token = tokens.job(job);
          TokenEdit edit = new TokenEdit();
          if (tokens.runnable.containsKey(job)) {
            edit.note("job " + job + " is already runnable or running");
            return edit.result("redo", scope);
          }
          JobData data = Json.read(token, JobData.class);
          ExecutionData record =
              data.history.stream()
                  .filter(e -> e.execution == execution)
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "job "
                                  + job
                                  + " of "
                                  + scope
                                  + " has no execution "
                                  + execution
                                  + "; its executions: "
                                  + data.history.stream().map(e -> e.execution).toList()));
          if (!tokens.isRunning()) {
            RunningLimit.check(engine, workflow, "redo in " + scope);
          }
          data.events = new ArrayList<>(record.events);
          data.attempt = 0;
          data.readyInputs = null;
          edit.delete(token, "");
          edit.add(
              new Token(
                  0,
                  TokenLayout.runnable(workflow, instance, job),
                  null,
                  0,
                  token.priority(),
                  Json.write(data)),
              "redo of execution " + execution);
          tokens.revive(edit, List.of(job));
          edit.commit(engine.master());
          return edit.result("redo", scope, instance);
        });
  }
}
