package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.workflow.definition.JobDefinition;
import dev.flipper.workflow.definition.WorkflowDefinition;
import dev.flipper.workflow.engine.StoredDefinition;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.JobData;
import dev.flipper.workflow.tokens.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code reload} (docs/workflows.md, "Control operations"): copies from the stored definition into
 * the jobs of an active instance what may change while it runs: command, cleanup, e-mails,
 * attempts, retry delay, time-outs and priority. The instance's topology (inputs, outputs), history
 * and disabled flags stay. All jobs, or the listed ones; refused if one of them is running now.
 * Unchanged jobs are not written. One modify. Thread-safe.
 */
final class ReloadOperation {
  private final WorkflowEngine engine;
  private final Clock clock;

  ReloadOperation(WorkflowEngine engine, Clock clock) {
    this.engine = engine;
    this.clock = clock;
  }

  ControlResult reload(String workflow, String instance, List<String> only) {
    ControlScope scope = ControlScope.instance(workflow, instance);
    WorkflowDefinition definition =
        engine
            .definitions()
            .get(workflow)
            .map(StoredDefinition::definition)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no stored definition of workflow '"
                            + workflow
                            + "' to reload from; store it with: flipper workflow apply FILE"));
    return ConflictRetry.run(
        "reload " + scope,
        () -> {
          InstanceTokens tokens = InstanceTokens.require(engine.master(), workflow, instance);
          List<String> jobs = only.isEmpty() ? new ArrayList<>(tokens.jobs().keySet()) : only;
          TokenEdit edit = new TokenEdit();
          long nowSeconds = clock.instant().getEpochSecond();
          for (String job : jobs) {
            Token token = tokens.job(job);
            JobDefinition wanted =
                definition
                    .job(job)
                    .orElseThrow(
                        () ->
                            new IllegalArgumentException(
                                "job "
                                    + job
                                    + " of "
                                    + scope
                                    + " is not in the stored definition of '"
                                    + workflow
                                    + "'; nothing was reloaded"));
            if (tokens.runnable.containsKey(job) && InstanceTokens.runningAt(token, nowSeconds)) {
              throw new ControlRefusedException(
                  "reload refused: job "
                      + job
                      + " of "
                      + scope
                      + " is running (worker "
                      + token.owner()
                      + "); wait for it to end, or reload the other jobs with -j");
            }
            JobData data = Json.read(token, JobData.class);
            String before = Json.write(data);
            double priority = definition.graph().priority(job);
            data.command = wanted.command();
            data.cleanupCommand = wanted.cleanup().orElse(null);
            data.emails = new ArrayList<>(wanted.emails());
            data.maxAttempts = wanted.maxAttempts();
            data.retryDelayMillis = wanted.retryDelay().toMillis();
            data.warnTimeoutMillis = wanted.warnTimeout().map(Duration::toMillis).orElse(null);
            data.abortTimeoutMillis = wanted.abortTimeout().map(Duration::toMillis).orElse(null);
            data.priority = priority;
            String after = Json.write(data);
            if (before.equals(after) && token.priority() == priority) {
              continue;
            }
            if (!Objects.equals(
                data.inputs.stream().filter(i -> !i.startsWith("__")).toList(), wanted.needs())) {
              edit.note(
                  "job "
                      + job
                      + ": the definition changed its parents; the instance keeps its own");
            }
            edit.update(token.withPriority(priority).withData(after), "reloaded");
          }
          if (edit.isEmpty()) {
            edit.note("every job of " + scope + " already matches the stored definition");
          }
          edit.commit(engine.master());
          return edit.result("reload", scope);
        });
  }
}
