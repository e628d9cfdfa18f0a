package dev.flipper.workflow.control;

import dev.flipper.token.Token;
import dev.flipper.token.TokenMaster;
import dev.flipper.workflow.tokens.ConflictRetry;

/**
 * {@code stop}: deletes every token of an active instance (record, jobs, events, runnable jobs,
 * instance signals, archive token) in one modify; nothing is archived, so the instance is gone. A
 * worker running one of its jobs loses the lease at its next renewal and kills the process.
 * Stopping a gone instance changes nothing. Thread-safe.
 */
final class StopOperation {
  private final TokenMaster master;

  StopOperation(TokenMaster master) {
    this.master = master;
  }

  ControlResult stop(String workflow, String instance) {
    ControlScope scope = ControlScope.instance(workflow, instance);
    return ConflictRetry.run(
        "stop " + scope,
        () -> {
          TokenEdit edit = new TokenEdit();
          InstanceTokens.read(master, workflow, instance)
              .ifPresentOrElse(
                  tokens -> {
                    for (Token token : tokens.all) {
                      edit.delete(token, "");
                    }
                  },
                  () -> edit.note("no active instance " + workflow + "/" + instance));
          edit.commit(master);
          return edit.result("stop", scope);
        });
  }
}
