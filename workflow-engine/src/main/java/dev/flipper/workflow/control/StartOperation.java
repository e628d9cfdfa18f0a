package dev.flipper.workflow.control;

import dev.flipper.token.Query;
import dev.flipper.token.Token;
import dev.flipper.workflow.engine.WorkflowEngine;
import dev.flipper.workflow.tokens.ConflictRetry;
import dev.flipper.workflow.tokens.TokenLayout;
import java.util.List;
import java.util.Map;

/**
 * {@code start}: a new instance of a stored workflow, refused by the {@link RunningLimit}. With a
 * limit, the definition token is rewritten (unchanged data, new version) in the same modify as the
 * start, so two starts that both counted the same running instances conflict and the loser counts
 * again: the limit holds under concurrent starts through the control operations. Thread-safe.
 */
final class StartOperation {
  private final WorkflowEngine engine;

  StartOperation(WorkflowEngine engine) {
    this.engine = engine;
  }

  ControlResult start(String workflow, String startedBy, Map<String, String> params) {
    ControlScope scope = ControlScope.workflow(workflow);
    return ConflictRetry.run(
        "start " + workflow,
        () -> {
          String name = TokenLayout.definition(workflow);
          Token definition =
              engine.master().query(Query.prefix(name)).stream()
                  .filter(t -> t.name().equals(name))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "no workflow '"
                                  + workflow
                                  + "' in the master; store it first with: flipper workflow apply FILE"));
          boolean limited = RunningLimit.check(engine, workflow, "start of " + workflow);
          List<Token> guard = limited ? List.of(definition) : List.of();
          String instance = engine.instances().start(workflow, startedBy, params, guard);
          TokenEdit edit = new TokenEdit();
          // Reported, not written again: the start wrote them.
          InstanceTokens.read(engine.master(), workflow, instance)
              .ifPresent(t -> t.all.forEach(token -> edit.add(token, "instance started")));
          if (limited) {
            edit.update(
                definition,
                "new version only: serializes starts against the schedule's maxRunning");
          }
          return edit.result("start", scope, instance);
        });
  }
}
