package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import java.time.Clock;
import java.util.List;

/**
 * {@code disable} and {@code enable} of jobs in an active instance (docs/workflows.md, "Control
 * operations"), in one modify. A disabled job still waits for its inputs; when it becomes runnable
 * it succeeds at once without running anything. Refused if a listed job is running now. Jobs
 * already in the wanted state are left alone. Thread-safe.
 */
final class DisableOperation {
  private final WorkflowEngine engine;
  private final Clock clock;

  DisableOperation(WorkflowEngine engine, Clock clock) {
    this.engine = engine;
    this.clock = clock;
  }

  ControlResult set(String workflow, String instance, List<String> jobs, boolean disabled) {
    String operation = disabled ? "disable" : "enable";
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException(operation + " needs the jobs (-j JOB, repeatable)");
    }
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run(
        operation + " " + scope,
        () -> {
          InstanceTokens tokens = InstanceTokens.require(engine.master(), workflow, instance);
          TokenEdit edit = new TokenEdit();
          long nowSeconds = clock.instant().getEpochSecond();
          for (String job : jobs) {
            Token token = tokens.job(job);
            if (tokens.runnable.containsKey(job) && InstanceTokens.runningAt(token, nowSeconds)) {
              throw new ControlRefusedException(
                  operation
                      + " refused: job "
                      + job
                      + " of "
                      + scope
                      + " is running"
                      + " (worker "
                      + token.owner()
                      + "); wait for it to end");
            }
            JobData data = Json.read(token, JobData.class);
            if (data.disabled == disabled) {
              edit.note("job " + job + " is already " + (disabled ? "disabled" : "enabled"));
              continue;
            }
            data.disabled = disabled;
            edit.update(token.withData(Json.write(data)), disabled ? "disabled" : "enabled");
          }
          edit.commit(engine.master());
          return edit.result(operation, scope);
        });
  }
}
